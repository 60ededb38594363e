// Reductions: the reduced dims disappear (or stay as 1 with keepdim).
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

// Same: the input's dtype (or the op's dtype= argument); Summed: the same, except
// that integral and bool inputs give int64 (sum, prod: torch accumulates them in int64).
enum class Out { Same, Summed, Bool, Long, ValuesAndIndices, Pair };

ir::ScalarType result_dtype(const RuleContext& ctx, const SymTensor& self, Out out) {
  if (auto d = ctx.dtype(99, "dtype")) return *d;  // keyword-only in every reduction's schema
  return out == Out::Summed ? summed_dtype(self.dtype) : self.dtype;
}

ShapeRule reduction(size_t dim_index, size_t keepdim_index, Out out) {
  return [=](RuleContext& ctx) -> SymValue {
    const SymTensor self = ctx.tensor(0, "self");
    const std::vector<int64_t> dims =
        dim_index == SIZE_MAX ? reduction_dims(ctx, SIZE_MAX, "", self.rank())
                              : reduction_dims(ctx, dim_index, "dim", self.rank());
    const bool keepdim =
        keepdim_index == SIZE_MAX ? false : ctx.boolean_or(keepdim_index, "keepdim", false);
    const std::vector<Expr> sizes = reduced_sizes(self.sizes, dims, keepdim);
    switch (out) {
      case Out::Same:
      case Out::Summed: return shaped(sizes, result_dtype(ctx, self, out));
      case Out::Bool: return shaped(sizes, ir::ScalarType::Bool);
      case Out::Long: return shaped(sizes, ir::ScalarType::Long);
      case Out::ValuesAndIndices: return SymValue::list({shaped(sizes, self.dtype), shaped(sizes, ir::ScalarType::Long)});
      case Out::Pair: return SymValue::list({shaped(sizes, self.dtype), shaped(sizes, self.dtype)});
    }
    return shaped(sizes, self.dtype);
  };
}

/// max/min: .dim overloads return (values, indices); .default/.other reduce all or broadcast.
SymValue max_min(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  if (auto other = ctx.optional_tensor(1, "other"))
    return shaped(broadcast_shapes(ctx, self.sizes, other->sizes), promote(self.dtype, other->dtype));
  if (!ctx.has(1, "dim")) return shaped({}, self.dtype);
  return reduction(1, 2, Out::ValuesAndIndices)(ctx);
}

/// histc(self, bins=100, min=0, max=0): torch's meta_histc, a 1-D [bins] of the input's dtype.
SymValue histc(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  if (!ir::is_floating(self.dtype)) throw RuleError("\"histogram_cpu\" not implemented for this dtype");
  const Expr bins = ctx.integer_or(1, "bins", 100);
  ctx.check(Expr::gt(bins, Expr(0)), "histc: bins > 0",
            [&] { return "histc(): bins must be > 0, but got " + bins.str(); });
  return shaped({bins}, self.dtype);
}

}  // namespace

void add_reduction_rules(RuleTable& t) {
  set_aten_rule(t, {"histc"}, histc);
  set_aten_rule(t, {"mean", "nanmean", "amax", "amin", "logsumexp", "sum_to_size"}, reduction(1, 2, Out::Same));
  set_aten_rule(t, {"sum", "nansum", "prod"}, reduction(1, 2, Out::Summed));
  t["aten.sum.default"] = reduction(SIZE_MAX, SIZE_MAX, Out::Summed);
  t["aten.mean.default"] = reduction(SIZE_MAX, SIZE_MAX, Out::Same);
  t["aten.prod.default"] = reduction(SIZE_MAX, SIZE_MAX, Out::Summed);
  t["aten.argmax"] = reduction(1, 2, Out::Long);
  t["aten.argmin"] = reduction(1, 2, Out::Long);
  t["aten.count_nonzero"] = reduction(1, SIZE_MAX, Out::Long);
  for (const char* op : {"all", "any"}) {
    t[std::string("aten.") + op] = reduction(1, 2, Out::Bool);
    t[std::string("aten.") + op + ".default"] = reduction(SIZE_MAX, SIZE_MAX, Out::Bool);
  }
  set_aten_rule(t, {"max", "min"}, max_min);
  t["aten.median.dim"] = reduction(1, 2, Out::ValuesAndIndices);
  t["aten.mode"] = reduction(1, 2, Out::ValuesAndIndices);
  t["aten.kthvalue"] = reduction(2, 3, Out::ValuesAndIndices);
  t["aten.aminmax"] = reduction(1, 2, Out::Pair);
  // var/std: .correction(self, dim, *, correction, keepdim) and .dim(self, dim, unbiased, keepdim)
  for (const char* op : {"var", "std"}) {
    t[std::string("aten.") + op + ".correction"] = reduction(1, 99, Out::Same);
    t[std::string("aten.") + op + ".dim"] = reduction(1, 3, Out::Same);
    t[std::string("aten.") + op + ".default"] = reduction(SIZE_MAX, SIZE_MAX, Out::Same);
    t[std::string("aten.") + op + "_mean.correction"] = reduction(1, 99, Out::Pair);
    t[std::string("aten.") + op + "_mean.dim"] = reduction(1, 3, Out::Pair);
  }
  t["aten.norm.ScalarOpt_dim"] = [](RuleContext& ctx) -> SymValue {
    const SymTensor self = ctx.tensor(0, "self");
    const std::vector<int64_t> dims = reduction_dims(ctx, 2, "dim", self.rank());
    return shaped(reduced_sizes(self.sizes, dims, ctx.boolean_or(3, "keepdim", false)), self.dtype);
  };
  t["aten.linalg_vector_norm"] = reduction(2, 3, Out::Same);
}

}  // namespace exportlens::ops

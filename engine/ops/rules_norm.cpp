// Normalization: layer_norm checks the trailing dims against
// normalized_shape; batch_norm checks the channel dim against the running
// statistics and affine parameters (Eq(s1, 3) for a BatchNorm2d(3)).
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

void check_trailing(RuleContext& ctx, const SymTensor& x, const std::vector<Expr>& normalized) {
  if (normalized.size() > x.rank()) throw RuleError("layer_norm: normalized_shape is longer than the input's rank");
  const size_t off = x.rank() - normalized.size();
  for (size_t i = 0; i < normalized.size(); ++i)
    ctx.check_equal(x.sizes[off + i], normalized[i], "layer_norm: trailing dims == normalized_shape", [&] {
      return "Given normalized_shape=" + normalized[i].str() + ", expected input with matching trailing size";
    });
}

std::vector<Expr> stat_sizes(const SymTensor& x, size_t normalized_rank) {
  std::vector<Expr> s(x.sizes.begin(), x.sizes.end() - long(normalized_rank));
  s.insert(s.end(), normalized_rank, Expr(1));
  return s;
}

// Saved statistics (layer and batch norm): float for reduced-precision inputs, else the input's dtype.
ir::ScalarType stats_dtype(const SymTensor& x) {
  return x.dtype == ir::ScalarType::Half || x.dtype == ir::ScalarType::BFloat16 ? ir::ScalarType::Float : x.dtype;
}

SymValue layer_norm(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "input");
  const std::vector<Expr> normalized = ctx.integers(1, "normalized_shape");
  check_trailing(ctx, x, normalized);
  for (size_t i : {size_t(2), size_t(3)})
    if (auto p = ctx.optional_tensor(i))
      for (size_t k = 0; k < std::min(p->rank(), normalized.size()); ++k)
        ctx.check_equal(p->sizes[k], normalized[k], "layer_norm: weight/bias == normalized_shape");
  return same_shape(x);
}

SymValue native_layer_norm(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "input");
  const std::vector<Expr> normalized = ctx.integers(1, "normalized_shape");
  check_trailing(ctx, x, normalized);
  const std::vector<Expr> stats = stat_sizes(x, normalized.size());
  return SymValue::list({same_shape(x), shaped(stats, stats_dtype(x)), shaped(stats, stats_dtype(x))});
}

SymValue rms_norm(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "input");
  check_trailing(ctx, x, ctx.integers(1, "normalized_shape"));
  return same_shape(x);
}

/// The channel checks of batch norm: every per-channel tensor among the
/// given argument positions has size C.
void check_channels(RuleContext& ctx, const SymTensor& x, std::initializer_list<size_t> positions) {
  if (x.rank() < 2) return;
  for (size_t i : positions)
    if (auto p = ctx.optional_tensor(i))
      if (p->rank() == 1) ctx.check_equal(p->sizes[0], x.sizes[1], "batch_norm: per-channel tensors have C entries");
}

SymValue batch_norm(RuleContext& ctx) {  // (input, weight, bias, running_mean, running_var, ...)
  const SymTensor x = ctx.tensor(0, "input");
  check_channels(ctx, x, {3, 4, 1, 2});
  return same_shape(x);
}

SymValue channel_stats(const SymTensor& x) { return shaped({x.rank() >= 2 ? x.sizes[1] : Expr(0)}, stats_dtype(x)); }

SymValue native_batch_norm(RuleContext& ctx) {  // -> (out, save_mean, save_invstd)
  const SymTensor x = ctx.tensor(0, "input");
  check_channels(ctx, x, {3, 4, 1, 2});
  return SymValue::list({same_shape(x), channel_stats(x), channel_stats(x)});
}

SymValue batch_norm_functional(RuleContext& ctx) {  // -> (out, mean, invstd, new_running_mean, new_running_var)
  const SymTensor x = ctx.tensor(0, "input");
  check_channels(ctx, x, {3, 4, 1, 2});
  return SymValue::list(
      {same_shape(x), channel_stats(x), channel_stats(x), channel_stats(x), channel_stats(x)});
}

SymValue batch_norm_no_stats(RuleContext& ctx) {  // _native_batch_norm_legit.no_stats: (input, weight, bias, training, ...)
  const SymTensor x = ctx.tensor(0, "input");
  check_channels(ctx, x, {1, 2});
  return SymValue::list({same_shape(x), channel_stats(x), channel_stats(x)});
}

SymValue group_norm(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "input");
  const Expr groups = ctx.integer(1, "num_groups");
  if (x.rank() >= 2)
    ctx.check(Expr::eq(ctx.mod(x.sizes[1], groups), Expr(0)), "group_norm: channels divisible by groups");
  return same_shape(x);
}

SymValue native_group_norm(RuleContext& ctx) {  // (input, weight, bias, N, C, HxW, group, eps)
  const SymTensor x = ctx.tensor(0, "input");
  const Expr n = ctx.integer(3, "N"), g = ctx.integer(6, "group");
  return SymValue::list({same_shape(x), shaped({n, g}, x.dtype), shaped({n, g}, x.dtype)});
}

/// _weight_norm_interface(v, g, dim) -> (v * (g / norm), norm): the norm over
/// every dim but `dim`, kept as size 1 (torch's meta: in float for a bfloat16 g).
SymValue weight_norm_interface(RuleContext& ctx) {
  const SymTensor v = ctx.tensor(0, "v");
  const SymTensor g = ctx.tensor(1, "g");
  const auto dim = ctx.integer_or(2, "dim", 0).as_integer();
  if (!dim || *dim < 0 || *dim >= int64_t(v.rank())) throw RuleError("_weight_norm_interface: dim out of range");
  std::vector<Expr> norm(v.rank(), Expr(1));
  norm[size_t(*dim)] = v.sizes[size_t(*dim)];
  return SymValue::list({same_shape(v), shaped(norm, g.dtype == ir::ScalarType::BFloat16 ? ir::ScalarType::Float : v.dtype)});
}

}  // namespace

void add_norm_rules(RuleTable& t) {
  set_aten_rule(t, {"layer_norm"}, layer_norm);
  set_aten_rule(t, {"native_layer_norm"}, native_layer_norm);
  set_aten_rule(t, {"rms_norm"}, rms_norm);
  set_aten_rule(t, {"batch_norm"}, batch_norm);
  t["aten.instance_norm"] = [](RuleContext& ctx) { return same_shape(ctx.tensor(0, "input")); };
  set_aten_rule(t, {"native_batch_norm", "_native_batch_norm_legit_no_training",
                    "_native_batch_norm_legit"}, native_batch_norm);
  t["aten._native_batch_norm_legit.no_stats"] = batch_norm_no_stats;
  set_aten_rule(t, {"_native_batch_norm_legit_functional"}, batch_norm_functional);
  set_aten_rule(t, {"cudnn_batch_norm"}, native_batch_norm);
  set_aten_rule(t, {"group_norm"}, group_norm);
  set_aten_rule(t, {"native_group_norm"}, native_group_norm);
  set_aten_rule(t, {"_weight_norm"}, [](RuleContext& ctx) { return same_shape(ctx.tensor(0, "v")); });
  set_aten_rule(t, {"_weight_norm_interface"}, weight_norm_interface);
}

}  // namespace exportlens::ops

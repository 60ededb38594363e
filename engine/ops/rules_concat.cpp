// cat / stack (the other dims must agree) and split / chunk (the number of
// pieces specializes: torch iterates over range(num_splits)).
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

SymValue cat(RuleContext& ctx) {
  std::vector<SymTensor> ts = ctx.tensors(0, "tensors");
  // Legacy: 1-D empty tensors are skipped.
  std::vector<SymTensor> kept;
  for (auto& t : ts)
    if (!(t.rank() == 1 && ctx.simplify(t.sizes[0]) == Expr(0))) kept.push_back(std::move(t));
  if (kept.empty()) return ts.empty() ? shaped({Expr(0)}, ir::ScalarType::Float) : SymValue::of(ts.front());
  const SymTensor& first = kept.front();
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(1, "dim", 0), first.rank()));
  SymTensor out = first;
  for (size_t k = 1; k < kept.size(); ++k) {
    const SymTensor& t = kept[k];
    if (t.rank() != first.rank()) throw RuleError("cat: tensors must have the same number of dimensions");
    for (size_t d = 0; d < first.rank(); ++d)
      if (d != dim)
        ctx.check_equal(t.sizes[d], first.sizes[d], "cat: the other dims match",
                  "Sizes of tensors must match except in dimension " + std::to_string(dim));
    out.sizes[dim] = out.sizes[dim] + t.sizes[dim];
    out.dtype = promote(out.dtype, t.dtype);
  }
  out.sizes[dim] = ctx.simplify(out.sizes[dim]);
  return SymValue::of(std::move(out));
}

SymValue stack(RuleContext& ctx) {
  const std::vector<SymTensor> ts = ctx.tensors(0, "tensors");
  if (ts.empty()) throw RuleError("stack expects a non-empty list of tensors");
  const SymTensor& first = ts.front();
  for (size_t k = 1; k < ts.size(); ++k) {
    if (ts[k].rank() != first.rank()) throw RuleError("stack expects each tensor to be equal size");
    std::vector<Expr> eqs;
    for (size_t d = 0; d < first.rank(); ++d) eqs.push_back(Expr::eq(ts[k].sizes[d], first.sizes[d]));
    if (!eqs.empty()) ctx.check(Expr::logical_and(eqs), "stack: every tensor has the same shape");
  }
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(1, "dim", 0), first.rank() + 1));
  SymTensor out = first;
  out.sizes.insert(out.sizes.begin() + long(dim), Expr(int64_t(ts.size())));
  return SymValue::of(std::move(out));
}

SymValue split_pieces(RuleContext& ctx, const SymTensor& self, size_t dim, const Expr& split) {
  const Expr size = self.sizes[dim];
  int64_t n;
  if (size.is_integer() && split.is_integer() && *split.as_integer() > 0) {
    n = std::max<int64_t>((*size.as_integer() + *split.as_integer() - 1) / *split.as_integer(), 1);
  } else {
    // at::split: std::max(((size + split - 1) / split).guard_int(), 1)
    const Expr count = ctx.simplify(ctx.floordiv(size + split - Expr(1), split));
    n = std::max<int64_t>(ctx.env.specialize(count, ctx.origin("split: the number of pieces")), 1);
  }
  std::vector<SymValue> parts;
  for (int64_t i = 0; i < n; ++i) {
    SymTensor p = self;
    if (i + 1 < n) p.sizes[dim] = split;
    else if (size.is_integer() && split.is_integer())
      p.sizes[dim] = Expr(*size.as_integer() - *split.as_integer() * (n - 1));
    else {
      p.sizes[dim] = ctx.simplify(size - split * Expr(n - 1));
      // at::split narrows the last piece: its length must not be negative (a guard, 4 <= s0 for s0 - 4).
      ctx.check(Expr::ge(p.sizes[dim], Expr(0)), "split: the last piece's length is non-negative");
    }
    parts.push_back(SymValue::of(std::move(p)));
  }
  return SymValue::list(std::move(parts));
}

/// split_with_sizes: `self` cut along `dim` into pieces of the given sizes,
/// which must add up to the dimension.
SymValue pieces_of_sizes(RuleContext& ctx, const SymTensor& self, size_t dim, const std::vector<Expr>& sizes) {
  Expr total(0);
  for (const Expr& e : sizes) total = total + e;
  ctx.check(Expr::eq(total, self.sizes[dim]), "split_with_sizes: sizes sum to the dim");
  std::vector<SymValue> parts;
  for (const Expr& e : sizes) {
    SymTensor p = self;
    p.sizes[dim] = e;
    parts.push_back(SymValue::of(std::move(p)));
  }
  return SymValue::list(std::move(parts));
}

SymValue split(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(2, "dim", 0), self.rank()));
  const SymValue s = ctx.value(1, "split_size");
  if (s.kind == SymValue::Kind::List) {  // split.sizes overload
    std::vector<Expr> sizes;
    for (const auto& item : s.items) sizes.push_back(item.scalar);
    return pieces_of_sizes(ctx, self, dim, sizes);
  }
  return split_pieces(ctx, self, dim, ctx.integer(1, "split_size"));
}

SymValue split_with_sizes(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(2, "dim", 0), self.rank()));
  return pieces_of_sizes(ctx, self, dim, ctx.integers(1, "split_sizes"));
}

SymValue chunk(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(2, "dim", 0), self.rank()));
  const Expr chunks = ctx.integer(1, "chunks");
  const Expr split = ctx.simplify(ctx.floordiv(self.sizes[dim] + chunks - Expr(1), chunks));
  return split_pieces(ctx, self, dim, split);
}

}  // namespace

void add_concat_rules(RuleTable& t) {
  set_aten_rule(t, {"cat", "concat", "concatenate"}, cat);
  set_aten_rule(t, {"stack"}, stack);
  set_aten_rule(t, {"split", "unsafe_split", "split_copy"}, split);
  set_aten_rule(t, {"split_with_sizes", "split_with_sizes_copy", "unsafe_split_with_sizes"}, split_with_sizes);
  set_aten_rule(t, {"chunk", "unsafe_chunk"}, chunk);
}

}  // namespace exportlens::ops

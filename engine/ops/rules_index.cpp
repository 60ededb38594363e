// Indexing with bound checks, as torch 2.13's fake kernels do them: slice
// resolves start/end with guard_or_false (y[:, :16] guards size >= 16),
// select guards index < size, narrow checks start <= size - length;
// data-dependent indices take the guard-free paths (no data-dependent error).
#include <climits>

#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

/// fake_impls._compute_slice_index.
std::optional<Expr> slice_index(RuleContext& ctx, const Expr& size, const Expr& index) {
  const char* rule = "slice: resolve the index";
  if (ctx.guard_or_false(Expr::logical_and({Expr::ge(index, Expr(0)), Expr::le(index, size)}), rule)) return index;
  if (ctx.guard_or_false(Expr::logical_and({Expr::lt(index, Expr(0)), Expr::ge(index, -size)}), rule))
    return ctx.simplify(index + size);
  if (ctx.guard_or_false(Expr::lt(index, -size), rule)) return Expr(0);
  if (ctx.guard_or_false(Expr::gt(index, size), rule)) return size;
  if (ctx.guard_or_false(Expr::ge(index, Expr(0)), rule)) return Expr::min(index, size);
  if (ctx.guard_or_false(Expr::lt(index, Expr(0)), rule)) return Expr::max(index + size, Expr(0));
  return std::nullopt;
}

Expr slice_length(RuleContext& ctx, const Expr& size, const std::optional<Expr>& start_arg,
                  const std::optional<Expr>& end_arg, const Expr& step) {
  const std::optional<Expr> start = start_arg ? slice_index(ctx, size, *start_arg) : std::optional<Expr>(Expr(0));
  const bool to_end = !end_arg || ctx.simplify(*end_arg) == Expr(INT64_MAX);
  const std::optional<Expr> end = to_end ? std::optional<Expr>(size) : slice_index(ctx, size, *end_arg);
  std::optional<Expr> length;
  if (start && end) {
    if (ctx.guard_or_false(Expr::ge(*end, *start), "slice: end >= start"))
      length = ctx.floordiv(*end - *start + step - Expr(1), step);
    else if (ctx.guard_or_false(Expr::ge(*start, *end), "slice: start >= end"))
      length = Expr(0);
    else
      length = ctx.floordiv(Expr::max(*end - *start, Expr(0)) + step - Expr(1), step);
  }
  if (!length) {
    const Expr u = ctx.env.create_unbacked(ctx.origin("slice: data-dependent length"));
    ctx.check(Expr::ge(u, Expr(0)), "slice: length >= 0");
    ctx.check(Expr::le(u, size), "slice: length <= size");
    length = u;
  }
  if (!start) ctx.env.create_unbacked(ctx.origin("slice: data-dependent storage offset"));
  return ctx.simplify(*length);
}

SymValue slice(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  if (self.rank() == 0) throw RuleError("slice() cannot be applied to a 0-dim tensor.");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(1, "dim", 0), self.rank()));
  const Expr step = ctx.integer_or(4, "step", 1);
  if (auto s = ctx.simplify(step).as_integer(); s && *s <= 0) throw RuleError("slice step must be positive");
  self.sizes[dim] = slice_length(ctx, self.sizes[dim], ctx.optional_integer(2, "start"), ctx.optional_integer(3, "end"), step);
  return SymValue::of(std::move(self));
}

SymValue narrow(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer(1, "dim"), self.rank()));
  const Expr start = ctx.integer(2, "start"), length = ctx.integer(3, "length");
  const Expr size = self.sizes[dim];
  ctx.check(Expr::le(start, size - length), "narrow: start + length <= size", [&] {
    return "start (" + start.str() + ") + length (" + length.str() + ") exceeds dimension size (" + size.str() + ").";
  });
  self.sizes[dim] = slice_length(ctx, size, start, ctx.simplify(start + length), Expr(1));
  return SymValue::of(std::move(self));
}

SymValue select(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  if (self.rank() == 0) throw RuleError("select() cannot be applied to a 0-dim tensor.");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer(1, "dim"), self.rank()));
  const Expr index = ctx.integer(2, "index");
  const Expr size = self.sizes[dim];
  if (ctx.guard_or_false(Expr::ge(index, size), "select: index < size") ||
      ctx.guard_or_false(Expr::lt(index, -size), "select: index >= -size"))
    throw RuleError("select(): index " + index.str() + " out of range for a dimension of size " + size.str());
  if (!ctx.guard_or_false(Expr::ge(index, Expr(0)), "select: storage offset") &&
      !ctx.guard_or_false(Expr::lt(index, Expr(0)), "select: storage offset"))
    ctx.env.create_unbacked(ctx.origin("select: data-dependent storage offset"));
  self.sizes.erase(self.sizes.begin() + long(dim));
  return SymValue::of(std::move(self));
}

SymValue index_select(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  const SymTensor index = ctx.tensor(2, "index");
  if (self.rank() == 0) return SymValue::of(std::move(self));
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer(1, "dim"), self.rank()));
  self.sizes[dim] = ctx.product(index.sizes);
  return SymValue::of(std::move(self));
}

/// x[idx0, idx1, ...] with tensor indices (None: keep the dim).
SymValue index_tensor(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const SymValue list = ctx.value(1, "indices");
  if (list.kind != SymValue::Kind::List) throw RuleError("index: expected a list of indices");
  std::vector<Expr> broadcast;
  bool first = true;
  std::vector<size_t> indexed;
  for (size_t i = 0; i < list.items.size(); ++i) {
    const SymValue& item = list.items[i];
    if (!item.is_tensor()) continue;
    std::vector<Expr> s = item.tensor.sizes;
    size_t consumed = 1;
    if (item.tensor.dtype == ir::ScalarType::Bool) {  // a mask: one unbacked count
      s = {ctx.env.create_unbacked(ctx.origin("index: mask count"))};
      consumed = item.tensor.rank();
    }
    broadcast = first ? s : broadcast_shapes(ctx, broadcast, s, "index: indices broadcast");
    first = false;
    for (size_t k = 0; k < consumed; ++k) indexed.push_back(i + k);
  }
  std::vector<Expr> out;
  const bool adjacent = indexed.empty() || indexed.back() - indexed.front() + 1 == indexed.size();
  if (!adjacent) out = broadcast;
  for (size_t d = 0; d < self.rank(); ++d) {
    const bool is_indexed = std::find(indexed.begin(), indexed.end(), d) != indexed.end();
    if (!is_indexed) out.push_back(self.sizes[d]);
    else if (adjacent && d == indexed.front()) out.insert(out.end(), broadcast.begin(), broadcast.end());
  }
  return shaped(out, self.dtype);
}

SymValue gather(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self"), index = ctx.tensor(2, "index");
  return shaped(index.sizes, self.dtype);
}

SymValue like_self(RuleContext& ctx) { return same_shape(ctx.tensor(0, "self")); }

SymValue embedding(RuleContext& ctx) {
  const SymTensor weight = ctx.tensor(0, "weight"), indices = ctx.tensor(1, "indices");
  std::vector<Expr> out = indices.sizes;
  out.push_back(weight.sizes.back());
  return shaped(out, weight.dtype);
}

SymValue masked_select(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const Expr u = ctx.env.create_unbacked(ctx.origin("masked_select: data-dependent count"));
  ctx.check(Expr::ge(u, Expr(0)), "masked_select: count >= 0");
  return shaped({u}, self.dtype);
}

SymValue nonzero(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const Expr u = ctx.env.create_unbacked(ctx.origin("nonzero: data-dependent count"));
  ctx.check(Expr::ge(u, Expr(0)), "nonzero: count >= 0");
  return shaped({u, Expr(int64_t(self.rank()))}, ir::ScalarType::Long);
}

SymValue unbind(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(1, "dim", 0), self.rank()));
  const int64_t n = ctx.env.specialize(self.sizes[dim], ctx.origin("unbind: the number of outputs"));
  SymTensor part = self;
  part.sizes.erase(part.sizes.begin() + long(dim));
  return SymValue::list(std::vector<SymValue>(size_t(n), SymValue::of(part)));
}

SymValue topk(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  const Expr k = ctx.integer(1, "k");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer_or(2, "dim", -1), self.rank()));
  if (self.rank() > 0) {
    ctx.check(Expr::le(k, self.sizes[dim]), "topk: k <= size", "selected index k out of range");
    self.sizes[dim] = k;
  }
  SymTensor idx = self;
  idx.dtype = ir::ScalarType::Long;
  return SymValue::list({SymValue::of(self), SymValue::of(idx)});
}

SymValue sort(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  SymTensor idx = self;
  idx.dtype = ir::ScalarType::Long;
  return SymValue::list({SymValue::of(self), SymValue::of(idx)});
}

}  // namespace

void add_index_rules(RuleTable& t) {
  set_aten_rule(t, {"slice", "slice_copy"}, slice);
  set_aten_rule(t, {"narrow", "narrow_copy"}, narrow);
  set_aten_rule(t, {"select", "select_copy"}, select);
  set_aten_rule(t, {"index_select"}, index_select);
  set_aten_rule(t, {"index", "_unsafe_index"}, index_tensor);
  set_aten_rule(t, {"gather"}, gather);
  set_aten_rule(t, {"scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_",
                    "index_put", "index_put_", "_unsafe_index_put", "index_add", "index_add_", "index_copy",
                    "index_copy_", "index_fill", "index_fill_", "slice_scatter", "select_scatter", "masked_scatter",
                    "diagonal_scatter", "as_strided_scatter"}, like_self);
  set_aten_rule(t, {"embedding"}, embedding);
  set_aten_rule(t, {"masked_select"}, masked_select);
  set_aten_rule(t, {"nonzero"}, nonzero);
  set_aten_rule(t, {"unbind"}, unbind);
  set_aten_rule(t, {"topk"}, topk);
  set_aten_rule(t, {"sort"}, sort);
  set_aten_rule(t, {"argsort"}, like_self);
}

}  // namespace exportlens::ops

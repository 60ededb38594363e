// Views and reshapes. view/reshape infer a -1 the way torch's infer_size does
// (numel % newsize == 0 guards divisibility; without -1, numel == newsize),
// then, on a contiguous input, run torch's reshape algorithm with its guards
// (reshape_view.h), as flatten does; expand checks size == 1 or == target.
#include <algorithm>

#include "engine/ops/reshape_view.h"
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

std::vector<Expr> infer_size(RuleContext& ctx, const std::vector<Expr>& shape, const Expr& numel) {
  static const Expr zero(0), minus_one(-1);
  std::optional<size_t> infer;
  std::vector<Expr> out, known;
  for (size_t i = 0; i < shape.size(); ++i) {
    const Expr d = ctx.simplify(shape[i]);
    out.push_back(d);
    // guard_or_false(d == -1), then torch._check(d >= 0); sizes whose range is
    // non-negative decide both without building the relations.
    const bool non_negative = compare(ctx.env.bound(d).lower, symbolic::Num::integer(0)) >= 0;
    if (d == minus_one || (!non_negative && ctx.guard_or_false(Expr::eq(d, minus_one), "view: inferred dim"))) {
      if (infer) throw RuleError("node " + ctx.node.name + ": only one dimension can be inferred");
      infer = i;
      continue;
    }
    if (!non_negative)
      ctx.check(Expr::ge(d, zero), "view: sizes are non-negative",
                [&] { return "invalid shape dimension " + d.str(); });
    known.push_back(d);
  }
  const Expr newsize = ctx.simplify(ctx.product(known));
  auto invalid_shape = [&]() {
    std::string s = "shape '[";
    for (size_t i = 0; i < out.size(); ++i) s += (i ? ", " : "") + out[i].str();
    return s + "]' is invalid for input of size " + numel.str();
  };
  if (!infer) {
    ctx.check_equal(numel, newsize, "view: numel == product of the new sizes", invalid_shape);
    return out;
  }
  if (compare(ctx.env.bound(newsize).lower, symbolic::Num::integer(1)) < 0)
    ctx.check(ctx.relation(Expr::Kind::Ne, newsize, zero), "view: -1 needs a non-zero product of the other sizes");
  const Expr remainder = ctx.simplify(ctx.mod(numel, newsize));
  if (!(remainder == zero))
    ctx.check(ctx.relation(Expr::Kind::Eq, remainder, zero), "view: numel divisible by the other sizes", invalid_shape);
  out[*infer] = ctx.simplify(ctx.floordiv(numel, newsize));
  return out;
}

/// `shape` (-1 inferred) as torch's view meta lays it out over `self`.
std::vector<Expr> reshaped(RuleContext& ctx, const SymTensor& self, const std::vector<Expr>& shape) {
  const std::vector<Expr> out = infer_size(ctx, shape, ctx.product(self.sizes));
  return reshape_sizes(ctx, self.sizes, out);
}

SymValue view(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  return shaped(reshaped(ctx, self, ctx.integers(1, "size")), self.dtype);
}

/// view.dtype: the elements reinterpreted (at::native's view_dtype): the
/// last dim scales by the ratio of the element sizes, and to a larger
/// element it must divide (torch._check, a guard on a symbolic size).
SymValue view_dtype(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  const std::optional<ir::ScalarType> to = ctx.dtype(1, "dtype");
  if (!to) throw RuleError("node " + ctx.node.name + ": view.dtype needs a dtype");
  const int64_t from_size = ir::element_size(self.dtype), to_size = ir::element_size(*to);
  self.dtype = *to;
  if (from_size == to_size) return SymValue::of(self);
  if (self.rank() == 0)
    throw RuleError("node " + ctx.node.name + ": view.dtype of a 0-dim tensor to another element size");
  Expr& last = self.sizes.back();
  if (from_size > to_size) {
    last = ctx.simplify(last * Expr(from_size / to_size));
  } else {
    const Expr ratio(to_size / from_size);
    ctx.check(ctx.relation(Expr::Kind::Eq, ctx.mod(last, ratio), Expr(0)), "view.dtype: the last dim divides by the ratio",
              [&] { return "self.size(-1) must be divisible by " + ratio.str() + " to view as a larger dtype"; });
    last = ctx.simplify(ctx.floordiv(last, ratio));
  }
  return SymValue::of(self);
}

SymValue view_as(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self"), other = ctx.tensor(1, "other");
  return shaped(reshaped(ctx, self, other.sizes), self.dtype);
}

SymValue flatten(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  if (self.rank() == 0) return shaped({Expr(1)}, self.dtype);
  const int64_t start = ctx.wrap_dim(ctx.static_integer_or(1, "start_dim", 0), self.rank());
  const int64_t end = ctx.wrap_dim(ctx.static_integer_or(2, "end_dim", -1), self.rank());
  if (start == end) return shaped(self.sizes, self.dtype);
  std::vector<Expr> out(self.sizes.begin(), self.sizes.begin() + start);
  out.push_back(ctx.simplify(ctx.product(self.sizes, size_t(start), size_t(end) + 1)));
  out.insert(out.end(), self.sizes.begin() + end + 1, self.sizes.end());
  // flatten is a reshape to these sizes: torch's view algorithm, with its guards.
  out = reshape_sizes(ctx, self.sizes, out);
  return shaped(out, self.dtype);
}

SymValue unflatten(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const int64_t dim = ctx.wrap_dim(ctx.static_integer(1, "dim"), self.rank());
  const std::vector<Expr> parts = infer_size(ctx, ctx.integers(2, "sizes"), self.sizes[size_t(dim)]);
  std::vector<Expr> out(self.sizes.begin(), self.sizes.begin() + dim);
  out.insert(out.end(), parts.begin(), parts.end());
  out.insert(out.end(), self.sizes.begin() + dim + 1, self.sizes.end());
  return shaped(out, self.dtype);
}

SymValue unsqueeze(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  const int64_t dim = ctx.wrap_dim(ctx.static_integer(1, "dim"), self.rank() + 1);
  self.sizes.insert(self.sizes.begin() + dim, Expr(1));
  return SymValue::of(std::move(self));
}

SymValue squeeze(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  std::vector<int64_t> dims;
  if (ctx.has(1, "dim")) {
    const SymValue v = ctx.value(1, "dim");
    if (v.kind == SymValue::Kind::Int) dims.push_back(ctx.static_integer(1, "dim"));
    else dims = ctx.static_integers(1, "dim");
    for (auto& d : dims) d = ctx.wrap_dim(d, self.rank());
  } else {
    for (size_t i = 0; i < self.rank(); ++i) dims.push_back(int64_t(i));
  }
  std::vector<Expr> out;
  for (size_t i = 0; i < self.rank(); ++i) {
    const bool listed = std::find(dims.begin(), dims.end(), int64_t(i)) != dims.end();
    if (listed && ctx.guard_or_false(Expr::eq(self.sizes[i], Expr(1)), "squeeze: size 1")) continue;
    out.push_back(self.sizes[i]);
  }
  self.sizes = out;
  return SymValue::of(std::move(self));
}

SymValue permute(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const std::vector<int64_t> dims = ctx.static_integers(1, "dims");
  if (dims.size() != self.rank()) throw RuleError("permute: number of dims does not match the rank");
  std::vector<Expr> out;
  for (int64_t d : dims) out.push_back(self.sizes[size_t(ctx.wrap_dim(d, self.rank()))]);
  return shaped(out, self.dtype);
}

SymValue transpose(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  if (self.rank() < 2) return SymValue::of(std::move(self));
  const int64_t a = ctx.wrap_dim(ctx.static_integer(1, "dim0"), self.rank());
  const int64_t b = ctx.wrap_dim(ctx.static_integer(2, "dim1"), self.rank());
  std::swap(self.sizes[size_t(a)], self.sizes[size_t(b)]);
  return SymValue::of(std::move(self));
}

SymValue movedim(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const SymValue src_v = ctx.value(1, "source");
  std::vector<int64_t> src = src_v.kind == SymValue::Kind::Int ? std::vector<int64_t>{ctx.static_integer(1, "source")}
                                                                 : ctx.static_integers(1, "source");
  std::vector<int64_t> dst = src_v.kind == SymValue::Kind::Int
                                 ? std::vector<int64_t>{ctx.static_integer(2, "destination")}
                                 : ctx.static_integers(2, "destination");
  const size_t r = self.rank();
  std::vector<int64_t> order(r, -1);
  std::vector<bool> used(r, false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[size_t(ctx.wrap_dim(dst[i], r))] = ctx.wrap_dim(src[i], r);
    used[size_t(ctx.wrap_dim(src[i], r))] = true;
  }
  size_t next = 0;
  for (auto& o : order) {
    if (o >= 0) continue;
    while (used[next]) ++next;
    o = int64_t(next++);
  }
  std::vector<Expr> out;
  for (int64_t o : order) out.push_back(self.sizes[size_t(o)]);
  return shaped(out, self.dtype);
}

std::vector<Expr> expand_sizes(RuleContext& ctx, const std::vector<Expr>& sizes, const std::vector<Expr>& target) {
  if (target.size() < sizes.size()) throw RuleError("expand: the number of sizes is less than the rank");
  std::vector<Expr> out(target.size(), shared_zero());
  const size_t lead = target.size() - sizes.size();
  for (size_t i = 0; i < target.size(); ++i) {
    const Expr t = ctx.simplify(target[i]);
    if (i < lead) {
      out[i] = t;
      continue;
    }
    const Expr s = ctx.simplify(sizes[i - lead]);
    if (t == Expr(-1) || t == s) {
      out[i] = s;
      continue;
    }
    ctx.check(Expr::logical_or({Expr::eq(s, Expr(1)), Expr::eq(s, t)}), "expand: size is 1 or the target");
    if (!ctx.guard_or_false(Expr::eq(s, Expr(1)), "expand: size 1 broadcasts"))
      ctx.check(Expr::eq(s, t), "expand: size matches the target");
    out[i] = t;
  }
  return out;
}

SymValue expand(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  return shaped(expand_sizes(ctx, self.sizes, ctx.integers(1, "size")), self.dtype);
}

SymValue expand_as(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self"), other = ctx.tensor(1, "other");
  return shaped(expand_sizes(ctx, self.sizes, other.sizes), self.dtype);
}

SymValue repeat(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const std::vector<Expr> reps = ctx.integers(1, "repeats");
  if (reps.size() < self.rank()) throw RuleError("repeat: fewer repeats than dimensions");
  std::vector<Expr> out;
  const size_t lead = reps.size() - self.rank();
  for (size_t i = 0; i < reps.size(); ++i)
    out.push_back(ctx.simplify(i < lead ? reps[i] : self.sizes[i - lead] * reps[i]));
  return shaped(out, self.dtype);
}

SymValue as_strided(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  return shaped(ctx.integers(1, "size"), self.dtype);
}

SymValue pixel_shuffle(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  const int64_t r = ctx.static_integer(1, "upscale_factor");
  std::vector<Expr> out(self.sizes.begin(), self.sizes.end() - 3);
  const size_t n = self.rank();
  out.push_back(ctx.simplify(ctx.floordiv(self.sizes[n - 3], Expr(r * r))));
  out.push_back(self.sizes[n - 2] * r);
  out.push_back(self.sizes[n - 1] * r);
  return shaped(out, self.dtype);
}

}  // namespace

void add_view_rules(RuleTable& t) {
  set_aten_rule(t, {"view", "_unsafe_view", "reshape", "view_copy", "_reshape_alias", "_reshape_copy"}, view);
  t["aten.view.dtype"] = view_dtype;  // not a reshape: keyed by its overload
  set_aten_rule(t, {"view_as", "reshape_as"}, view_as);
  set_aten_rule(t, {"flatten"}, flatten);
  set_aten_rule(t, {"unflatten"}, unflatten);
  set_aten_rule(t, {"unsqueeze", "unsqueeze_", "unsqueeze_copy"}, unsqueeze);
  set_aten_rule(t, {"squeeze", "squeeze_", "squeeze_copy"}, squeeze);
  set_aten_rule(t, {"permute", "permute_copy"}, permute);
  set_aten_rule(t, {"transpose", "transpose_copy", "swapaxes", "swapdims"}, transpose);
  set_aten_rule(t, {"movedim", "moveaxis"}, movedim);
  set_aten_rule(t, {"expand", "expand_copy", "broadcast_to"}, expand);
  set_aten_rule(t, {"expand_as"}, expand_as);
  set_aten_rule(t, {"repeat", "tile"}, repeat);
  set_aten_rule(t, {"as_strided", "as_strided_copy"}, as_strided);
  set_aten_rule(t, {"pixel_shuffle"}, pixel_shuffle);
}

}  // namespace exportlens::ops

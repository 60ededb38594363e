#include "engine/ops/reshape_view.h"

#include <algorithm>

#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

using K = Expr::Kind;

namespace {

/// Python's `lhs == rhs` / `lhs != rhs` on sizes: a plain int on the left is
/// the reflected comparison (SymInt.__eq__), so the guard reads `rhs == lhs`.
Expr compared(const RuleContext& ctx, K kind, const Expr& lhs, const Expr& rhs) {
  const bool reflected = lhs.is_integer() && !rhs.is_integer();
  return reflected ? ctx.relation(kind, rhs, lhs) : ctx.relation(kind, lhs, rhs);
}

}  // namespace

std::vector<Expr> reshape_sizes(RuleContext& ctx, const std::vector<Expr>& in, const std::vector<Expr>& shape) {
  // The special cases before the algorithm: no elements, 0-d input or
  // output, and a contiguous input's nd -> 1d and 1d -> 2d (as_strided).
  if (in.empty() || shape.empty()) return shape;
  // Sizes without example values (unbacked ones, or a lowering's per-node
  // inference, which knows no symbols) cannot be decided: requested sizes.
  const auto undecidable = [&](const Expr& e) { return ctx.env.has_unbacked(e); };
  if (std::any_of(in.begin(), in.end(), undecidable) || std::any_of(shape.begin(), shape.end(), undecidable))
    return shape;
  const Expr numel = ctx.simplify(ctx.product(in));
  if (ctx.eval(ctx.relation(K::Eq, numel, Expr(0)), "view: a.numel() == 0")) return shape;
  if ((shape.size() == 1 && in.size() > 1) || (shape.size() == 2 && in.size() == 1)) return shape;
  std::vector<Expr> a = in;
  size_t idx = 0;
  for (const Expr& length : shape) {
    if (idx >= a.size()) {  // tail unsqueeze: split_dim of the last dim by itself
      ctx.check(ctx.relation(K::Eq, length, Expr(1)), "view: a tail unsqueeze has length 1");
      a.push_back(ctx.simplify(ctx.floordiv(a.back(), a.back())));
      ++idx;
      continue;
    }
    if (ctx.eval(compared(ctx, K::Eq, length, a[idx]), "view: the dim already has the length")) {
      ++idx;
      continue;
    }
    Expr accum = a[idx];
    size_t end = idx;
    while (ctx.eval(ctx.relation(K::Ne, ctx.simplify(ctx.mod(accum, length)), Expr(0)),
                    "view: merge dims while accum % length != 0")) {
      if (end + 1 >= a.size()) throw RuleError("node " + ctx.node.name + ": view sizes do not fit the input's");
      ++end;
      accum = ctx.simplify(ctx.product({accum, a[end]}));
    }
    if (end != idx) {
      // flatten(a, idx, end): the collapsed stride skips dims of length 1.
      for (size_t i = end; i-- > idx;) ctx.eval(ctx.relation(K::Ne, a[i], Expr(1)), "view: collapsed dim != 1");
      a.erase(a.begin() + std::ptrdiff_t(idx), a.begin() + std::ptrdiff_t(end) + 1);
      a.insert(a.begin() + std::ptrdiff_t(idx), accum);
    }
    if (ctx.eval(compared(ctx, K::Ne, accum, length), "view: split where accum != length")) {
      ctx.check(ctx.relation(K::Eq, ctx.simplify(ctx.mod(a[idx], length)), Expr(0)),
                "view: split_dim divides the dim", [&] { return "cannot split " + a[idx].str() + " by " + length.str(); });
      const Expr inner = ctx.simplify(ctx.floordiv(a[idx], length));
      a[idx] = length;
      a.insert(a.begin() + std::ptrdiff_t(idx) + 1, inner);
    }
    ++idx;
  }
  while (idx < a.size()) {  // tail squeeze
    ctx.check(ctx.relation(K::Eq, a[idx], Expr(1)), "view: a squeezed tail dim has length 1");
    a.erase(a.begin() + std::ptrdiff_t(idx));
  }
  return a;
}

}  // namespace exportlens::ops

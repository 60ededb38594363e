// Factories: arange's length ceil((end - start) / step), and the sizes lists of
// zeros / ones / full / empty / rand* / new_* (often symbolic: [s0, 2]).
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

using ST = ir::ScalarType;

ST dtype_or(RuleContext& ctx, ST fallback) { return ctx.dtype(99, "dtype").value_or(fallback); }

SymValue arange(RuleContext& ctx) {
  const std::string ov = ctx.node.target.overload();
  Expr start(0), end, step(1);
  if (ov == "default") {
    end = ctx.integer(0, "end");
  } else {
    start = ctx.integer(0, "start");
    end = ctx.integer(1, "end");
    if (ov == "start_step") step = ctx.integer_or(2, "step", 1);
  }
  ctx.check(Expr::ne(step, Expr(0)), "arange: step != 0");
  const Expr length = step == Expr(1) ? end - start : ctx.floordiv(end - start + step - Expr(1), step);
  return shaped({ctx.simplify(Expr::max(length, Expr(0)))}, dtype_or(ctx, ST::Long));
}

SymValue from_size(RuleContext& ctx, size_t index, ST fallback) {
  return shaped(ctx.integers(index, "size"), dtype_or(ctx, fallback));
}

SymValue new_factory(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self");
  return shaped(ctx.integers(1, "size"), dtype_or(ctx, self.dtype));
}

SymValue scalar_tensor(RuleContext& ctx) { return shaped({}, dtype_or(ctx, ST::Float)); }

SymValue linspace(RuleContext& ctx) { return shaped({ctx.integer(2, "steps")}, dtype_or(ctx, ST::Float)); }

SymValue eye(RuleContext& ctx) {
  const Expr n = ctx.integer(0, "n");
  return shaped({n, ctx.has(1, "m") ? ctx.integer(1, "m") : n}, dtype_or(ctx, ST::Float));
}

SymValue randint(RuleContext& ctx) {
  // randint(high, size) / randint.low(low, high, size)
  const size_t size_index = ctx.node.target.overload() == "low" ? 2 : 1;
  return shaped(ctx.integers(size_index, "size"), dtype_or(ctx, ST::Long));
}

}  // namespace

void add_creation_rules(RuleTable& t) {
  set_aten_rule(t, {"arange"}, arange);
  set_aten_rule(t, {"zeros", "ones", "empty", "rand", "randn", "empty_strided", "empty_permuted", "full"},
                [](RuleContext& ctx) { return from_size(ctx, 0, ST::Float); });
  set_aten_rule(t, {"randint"}, randint);
  set_aten_rule(t, {"new_zeros", "new_ones", "new_empty", "new_full", "new_empty_strided"}, new_factory);
  set_aten_rule(t, {"scalar_tensor"}, scalar_tensor);
  set_aten_rule(t, {"linspace"}, linspace);
  set_aten_rule(t, {"eye"}, eye);
}

}  // namespace exportlens::ops

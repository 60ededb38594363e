// Symbolic scalars: sym_size / sym_numel, Python operators on SymInts
// (operator.mul, operator.ge, ...), item() (a fresh unbacked symbol),
// _assert_scalar (a guard, or a runtime assert that refines an unbacked
// symbol's range) and sym_constrain_range, getitem on tuple results.
#include "engine/ops/rule_helpers.h"
#include "engine/symbolic/solve.h"

namespace exportlens::ops {

namespace {

using K = Expr::Kind;

Expr scalar_of(RuleContext& ctx, size_t i, std::string_view name) {
  const SymValue v = ctx.value(i, name);
  if (v.kind == SymValue::Kind::Int || v.kind == SymValue::Kind::Bool) return v.scalar;
  throw RuleError("node " + ctx.node.name + ": expected a symbolic int or bool operand");
}

SymValue sym_size(RuleContext& ctx) {
  const SymTensor t = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer(1, "dim"), t.rank()));
  return SymValue::of_int(ctx.simplify(t.sizes[dim]));
}

SymValue sym_numel(RuleContext& ctx) { return SymValue::of_int(ctx.simplify(ctx.product(ctx.tensor(0, "self").sizes))); }

SymValue sym_stride(RuleContext& ctx) {  // contiguous strides: the product of the later sizes
  const SymTensor t = ctx.tensor(0, "self");
  const size_t dim = size_t(ctx.wrap_dim(ctx.static_integer(1, "dim"), t.rank()));
  return SymValue::of_int(ctx.simplify(ctx.product(t.sizes, dim + 1)));
}

template <typename F>
ShapeRule binary_int(F f) {
  return [f](RuleContext& ctx) { return SymValue::of_int(ctx.simplify(f(scalar_of(ctx, 0, "a"), scalar_of(ctx, 1, "b")))); };
}

template <typename F>
ShapeRule relation(F f) {
  return [f](RuleContext& ctx) { return SymValue::of_bool(ctx.simplify(f(scalar_of(ctx, 0, "a"), scalar_of(ctx, 1, "b")))); };
}

SymValue neg(RuleContext& ctx) { return SymValue::of_int(ctx.simplify(-scalar_of(ctx, 0, "a"))); }

/// int ** int with a literal exponent >= 0 (an int: torch's PowByNatural); a
/// negative or symbolic exponent (a float result) has no rule here.
SymValue pow_natural(RuleContext& ctx) {
  const Expr base = scalar_of(ctx, 0, "a");
  const auto exponent = ctx.simplify(scalar_of(ctx, 1, "b")).as_integer();
  if (!exponent || *exponent < 0) throw RuleError("pow: only a literal exponent >= 0 gives an int");
  if (*exponent == 0) return SymValue::of_int(Expr(1));
  if (*exponent == 1) return SymValue::of_int(ctx.simplify(base));
  return SymValue::of_int(ctx.simplify(Expr::pow(base, *exponent)));
}

SymValue sym_not(RuleContext& ctx) { return SymValue::of_bool(Expr::logical_not(scalar_of(ctx, 0, "a"))); }

SymValue item(RuleContext& ctx) {
  const SymTensor t = ctx.tensor(0, "self");
  if (ir::is_floating(t.dtype)) return SymValue::of_float(0);  // symbolic floats are not modelled
  return SymValue::of_int(ctx.env.create_unbacked(ctx.origin("item: a data-dependent value")));
}

SymValue assert_scalar(RuleContext& ctx) {
  const Expr cond = scalar_of(ctx, 0, "self");
  auto origin = ctx.origin("_assert_scalar");
  origin.kind = symbolic::Provenance::Kind::RuntimeAssert;
  std::string msg;
  if (const ir::Argument* a = ctx.arg(1, "assert_msg"); a && std::holds_alternative<std::string>(a->v))
    msg = std::get<std::string>(a->v);
  ctx.env.check(cond, origin, msg);
  return SymValue::none();
}

SymValue constrain_range(RuleContext& ctx, bool for_size) {
  const Expr s = ctx.simplify(scalar_of(ctx, 0, "size"));
  const auto lo = ctx.optional_integer(1, "min"), hi = ctx.optional_integer(2, "max");
  const symbolic::Num lower =
      lo && lo->is_integer() ? symbolic::Num::integer(*lo->as_integer())
                             : (for_size ? symbolic::Num::integer(0) : symbolic::Num::infinite(-1));
  const symbolic::Num upper =
      hi && hi->is_integer() ? symbolic::Num::integer(*hi->as_integer()) : symbolic::Num::infinite(1);
  auto origin = ctx.origin(for_size ? "sym_constrain_range_for_size" : "sym_constrain_range");
  origin.kind = symbolic::Provenance::Kind::RuntimeAssert;
  ctx.env.constrain_range(s, symbolic::ValueRange::between(lower, upper), origin);
  return SymValue::none();
}

SymValue getitem(RuleContext& ctx) {
  const SymValue seq = ctx.value(0);
  const int64_t i = ctx.static_integer(1);
  if (seq.kind != SymValue::Kind::List) throw RuleError("getitem on a value that is not a tuple");
  const int64_t n = int64_t(seq.items.size());
  const int64_t k = i < 0 ? i + n : i;
  if (k < 0 || k >= n) throw RuleError("getitem index " + std::to_string(i) + " out of range");
  return seq.items[size_t(k)];
}

SymValue sym_max(RuleContext& ctx) { return SymValue::of_int(ctx.simplify(Expr::max(scalar_of(ctx, 0, "a"), scalar_of(ctx, 1, "b")))); }
SymValue sym_min(RuleContext& ctx) { return SymValue::of_int(ctx.simplify(Expr::min(scalar_of(ctx, 0, "a"), scalar_of(ctx, 1, "b")))); }

SymValue no_value(RuleContext&) { return SymValue::none(); }

}  // namespace

void add_symint_rules(RuleTable& t) {
  set_aten_rule(t, {"sym_size"}, sym_size);
  set_aten_rule(t, {"sym_numel"}, sym_numel);
  set_aten_rule(t, {"sym_stride"}, sym_stride);
  t["aten.sym_storage_offset"] = [](RuleContext&) { return SymValue::of_int(Expr(0)); };
  t["_operator.add"] = binary_int([](const Expr& a, const Expr& b) { return a + b; });
  t["_operator.sub"] = binary_int([](const Expr& a, const Expr& b) { return a - b; });
  t["_operator.mul"] = binary_int([](const Expr& a, const Expr& b) { return a * b; });
  t["_operator.floordiv"] = binary_int([](const Expr& a, const Expr& b) { return Expr::floordiv(a, b); });
  t["_operator.mod"] = binary_int([](const Expr& a, const Expr& b) { return Expr::mod(a, b); });
  t["_operator.neg"] = neg;
  t["_operator.pow"] = pow_natural;
  t["_operator.eq"] = relation([](const Expr& a, const Expr& b) { return Expr::eq(a, b); });
  t["_operator.ne"] = relation([](const Expr& a, const Expr& b) { return Expr::ne(a, b); });
  t["_operator.lt"] = relation([](const Expr& a, const Expr& b) { return Expr::lt(a, b); });
  t["_operator.le"] = relation([](const Expr& a, const Expr& b) { return Expr::le(a, b); });
  t["_operator.gt"] = relation([](const Expr& a, const Expr& b) { return Expr::gt(a, b); });
  t["_operator.ge"] = relation([](const Expr& a, const Expr& b) { return Expr::ge(a, b); });
  t["_operator.and_"] = relation([](const Expr& a, const Expr& b) { return Expr::logical_and({a, b}); });
  t["_operator.or_"] = relation([](const Expr& a, const Expr& b) { return Expr::logical_or({a, b}); });
  t["_operator.not_"] = sym_not;
  t["torch.sym_not"] = sym_not;
  t["torch.sym_max"] = sym_max;
  t["torch.sym_min"] = sym_min;
  t["_operator.getitem"] = getitem;
  set_aten_rule(t, {"item", "_local_scalar_dense"}, item);
  set_aten_rule(t, {"_assert_scalar"}, assert_scalar);
  t["aten.sym_constrain_range"] = [](RuleContext& ctx) { return constrain_range(ctx, false); };
  t["aten.sym_constrain_range_for_size"] = [](RuleContext& ctx) { return constrain_range(ctx, true); };
  set_aten_rule(t, {"_assert_async", "_assert_tensor_metadata", "_print", "_functional_assert_async",
                    "_functional_sym_constrain_range", "_functional_sym_constrain_range_for_size",
                    "_check_is_size"}, no_value);
}

}  // namespace exportlens::ops

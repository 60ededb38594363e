// Elementwise ops: unary (same shape), binary and ternary (broadcast, with
// torch's guards: Eq(s2, s4) when x: [s2] meets y: [s3, s4]), comparisons
// (bool results), in-place forms (the result keeps self's shape).
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

using ST = ir::ScalarType;

SymValue unary(RuleContext& ctx) { return same_shape(ctx.tensor(0, "self")); }

// softmax.int / log_softmax.int (self, dim, dtype=None): the dtype argument,
// when given, is the result's.
SymValue unary_to_dtype(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "self");
  if (auto d = ctx.dtype(2, "dtype")) t.dtype = *d;
  return SymValue::of(std::move(t));
}

// cumsum / cumprod (self, dim, *, dtype=None): the dtype argument, else int64 for
// integral and bool inputs (torch accumulates them in int64), else the input's.
SymValue cumulative(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "self");
  t.dtype = ctx.dtype(2, "dtype").value_or(summed_dtype(t.dtype));
  return SymValue::of(std::move(t));
}

SymValue unary_bool(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "self");
  t.dtype = ST::Bool;
  return SymValue::of(std::move(t));
}

// The result's dtype: a dtype argument, or another tensor's (type_as, to.other).
SymValue to_dtype(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "self");
  for (size_t i = 1; i < ctx.node.args().size(); ++i) {
    if (auto d = ctx.dtype(i)) t.dtype = *d;
    else if (auto other = ctx.optional_tensor(i)) t.dtype = other->dtype;
  }
  if (auto d = ctx.dtype(99, "dtype")) t.dtype = *d;
  return SymValue::of(std::move(t));
}

/// Broadcast the tensor operands among the first `count` arguments, in order.
SymTensor broadcast_operands(RuleContext& ctx, size_t count, const std::vector<std::string_view>& names) {
  std::optional<SymTensor> acc;
  for (size_t i = 0; i < count; ++i) {
    auto t = ctx.optional_tensor(i, i < names.size() ? names[i] : std::string_view{});
    if (!t) continue;
    if (!acc) {
      acc = std::move(*t);
      continue;
    }
    acc->sizes = broadcast_shapes(ctx, acc->sizes, t->sizes);
    acc->dtype = promote(acc->dtype, t->dtype);
  }
  if (!acc) throw RuleError("node " + ctx.node.name + ": no tensor operand");
  return *acc;
}

SymValue binary(RuleContext& ctx) { return SymValue::of(broadcast_operands(ctx, 2, {"self", "other"})); }

/// True division is floating; div with rounding_mode 'floor' / 'trunc' keeps the promoted dtype.
SymValue binary_float(RuleContext& ctx) {
  SymTensor t = broadcast_operands(ctx, 2, {"self", "other"});
  const ir::Argument* mode = ctx.arg(2, "rounding_mode");
  const bool rounds = mode && std::get_if<std::string>(&mode->v);
  if (!rounds && !ir::is_floating(t.dtype)) t.dtype = ST::Float;
  return SymValue::of(std::move(t));
}

SymValue comparison(RuleContext& ctx) {
  SymTensor t = broadcast_operands(ctx, 2, {"self", "other"});
  t.dtype = ST::Bool;
  return SymValue::of(std::move(t));
}

/// diff(self, n, dim, prepend, append): the dim grows by prepend's and append's sizes there, then shrinks by n.
SymValue diff(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "self");
  const int64_t n = ctx.static_integer_or(1, "n", 1);
  const int64_t dim = ctx.wrap_dim(ctx.static_integer_or(2, "dim", -1), t.sizes.size());
  for (auto [index, name] : {std::pair<size_t, const char*>{3, "prepend"}, {4, "append"}})
    if (auto extra = ctx.optional_tensor(index, name); extra && size_t(dim) < extra->sizes.size())
      t.sizes[size_t(dim)] = t.sizes[size_t(dim)] + extra->sizes[size_t(dim)];
  t.sizes[size_t(dim)] = ctx.simplify(t.sizes[size_t(dim)] - Expr(n));
  return SymValue::of(std::move(t));
}

SymValue ternary(RuleContext& ctx) { return SymValue::of(broadcast_operands(ctx, 3, {"self", "tensor1", "tensor2"})); }

SymValue where(RuleContext& ctx) {
  SymTensor t = broadcast_operands(ctx, 3, {"condition", "self", "other"});
  if (auto x = ctx.optional_tensor(1, "self")) t.dtype = x->dtype;
  return SymValue::of(std::move(t));
}

/// In-place and masked forms: the result is self's shape; the other operands
/// must broadcast to it.
SymValue inplace(RuleContext& ctx) {
  SymTensor self = ctx.tensor(0, "self");
  for (size_t i = 1; i < 3; ++i)
    if (auto t = ctx.optional_tensor(i)) broadcast_shapes(ctx, self.sizes, t->sizes, "broadcast to self");
  return SymValue::of(std::move(self));
}

SymValue native_dropout(RuleContext& ctx) {
  SymTensor t = ctx.tensor(0, "input");
  SymTensor mask = t;
  mask.dtype = ST::Bool;
  return SymValue::list({SymValue::of(t), SymValue::of(mask)});
}

}  // namespace

void add_pointwise_rules(RuleTable& t) {
  set_aten_rule(t, {"relu", "relu_", "gelu", "gelu_", "silu", "silu_", "sigmoid", "sigmoid_", "tanh", "tanh_", "exp",
                    "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan",
                    "sinh", "cosh", "asinh", "acosh", "atanh", "neg", "abs", "sqrt", "rsqrt", "reciprocal", "erf",
                    "erfc", "erfinv", "floor", "ceil", "round", "trunc", "frac", "sign", "sgn", "hardtanh", "hardtanh_",
                    "leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "celu", "hardswish", "hardswish_",
                    "hardsigmoid", "hardsigmoid_", "mish", "softplus", "softshrink", "hardshrink", "threshold", "relu6",
                    "clone", "alias", "detach", "detach_", "contiguous", "lift_fresh_copy", "lift_fresh", "dropout",
                    "dropout_", "feature_dropout", "alpha_dropout", "bitwise_not", "clamp", "clamp_", "clamp_min",
                    "clamp_max", "nan_to_num", "_softmax", "_log_softmax", "cummax", "flip", "roll", "tril", "triu", "fill", "fill_", "zero_", "zeros_like",
                    "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "_safe_softmax",
                    "square", "logit", "digamma", "lgamma", "sinc", "deg2rad", "rad2deg", "positive", "_conj", "conj",
                    "resolve_conj", "resolve_neg", "bernoulli", "bernoulli_", "uniform_", "normal_", "exponential_",
                    "random_", "copy", "_assert_tensor_metadata_like"}, unary);
  set_aten_rule(t, {"softmax", "log_softmax"}, unary_to_dtype);
  set_aten_rule(t, {"cumsum", "cumprod"}, cumulative);
  set_aten_rule(t, {"isnan", "isinf", "isfinite", "isneginf", "isposinf", "logical_not", "signbit"}, unary_bool);
  set_aten_rule(t, {"_to_copy", "to", "type_as", "_autocast_to_reduced_precision",
                    "_autocast_to_full_precision"}, to_dtype);
  set_aten_rule(t, {"add", "sub", "mul", "rsub", "pow", "maximum", "minimum", "fmax", "fmin", "remainder", "fmod",
                    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "__and__",
                    "__or__", "__xor__", "__lshift__", "__rshift__", "floor_divide", "copysign", "nextafter",
                    "heaviside", "xlogy", "logaddexp", "logaddexp2", "hypot", "atan2", "gcd", "lcm",
                    "mse_loss_elementwise", "silu_backward", "threshold_backward", "gelu_backward", "sigmoid_backward",
                    "tanh_backward"}, binary);
  set_aten_rule(t, {"div", "true_divide"}, binary_float);
  set_aten_rule(t, {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
                    "isclose"}, comparison);
  set_aten_rule(t, {"addcmul", "addcdiv", "lerp"}, ternary);
  set_aten_rule(t, {"where"}, where);
  set_aten_rule(t, {"add_", "sub_", "mul_", "div_", "pow_", "copy_", "masked_fill", "masked_fill_", "clamp_min_",
                    "clamp_max_", "lerp_", "addcmul_", "addcdiv_"}, inplace);
  set_aten_rule(t, {"native_dropout"}, native_dropout);
  set_aten_rule(t, {"diff"}, diff);
  t["aten.min.other"] = binary;  // min / max of two tensors (their other overloads reduce)
  t["aten.max.other"] = binary;
}

}  // namespace exportlens::ops

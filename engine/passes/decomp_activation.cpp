// Activations and dropout.
//
// softmax / log_softmax -> _softmax / _log_softmax (at::native, with the
// dtype cast first); _safe_softmax, silu, hardswish, hardsigmoid: torch's
// Python decompositions; relu6 -> hardtanh(0, 6). dropout (functionalization
// level): native_dropout(...)[0] when training with p > 0, else clone.
#include <limits>

#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

/// Tensor.toType(dtype) as composite kernels write it: _to_copy with the full
/// options, or x itself when it already has that dtype (to() aliases then).
ir::Node* to_type(Rewriter& b, ir::Node* x, ir::ScalarType dtype) {
  if (b.dtype(x) == dtype) return x;
  return b.call1("aten._to_copy.default", {x},
                 {kw("dtype", dtype), kw("layout", ir::Layout::Strided), kw("device", b.meta(x).device)});
}

DecompositionFn softmax_like(const char* target) {
  return [target](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* x = c.tensor(0, "self");
    if (auto dtype = c.dtype(2, "dtype")) x = to_type(b, x, *dtype);
    return b.call(target, {x, c.integer(1, "dim"), false});
  };
}

/// _safe_softmax(x, dim, dtype): softmax, with rows that are all -inf set to 0.
ir::Argument safe_softmax(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const int64_t dim = c.integer(1, "dim");
  std::vector<ir::Argument> args{self, dim};
  if (auto dtype = c.dtype(2, "dtype")) args.push_back(*dtype);
  ir::Node* out = b.call1("aten.softmax.int", std::move(args));
  ir::Node* masked = b.call1("aten.eq.Scalar", {self, -std::numeric_limits<double>::infinity()});
  ir::Node* not_masked = b.call1("aten.logical_not.default", {masked});  // all(x) = !any(!x)
  ir::Node* any = b.call1("aten.any.dim", {not_masked, dim, true});
  ir::Node* masked_rows = b.call1("aten.logical_not.default", {any});
  ir::Node* zeros = b.call1("aten.zeros_like.default", {out});
  return b.call("aten.where.self", {masked_rows, zeros, out});
}

ir::Argument silu(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  return b.call("aten.mul.Tensor", {x, b.call1("aten.sigmoid.default", {x})});
}

ir::Argument relu6(Rewriter& b, const OpCall& c) {
  return b.call("aten.hardtanh.default", {c.tensor(0, "self"), int64_t{0}, int64_t{6}});
}

/// clamp(clamp(x + 3, min=0), max=6)
ir::Node* relu6_of_x_plus_3(Rewriter& b, ir::Node* x) {
  ir::Node* shifted = b.call1("aten.add.Tensor", {x, int64_t{3}});
  ir::Node* low = b.call1("aten.clamp.default", {shifted, int64_t{0}});
  return b.call1("aten.clamp.default", {low, ir::None{}, int64_t{6}});
}

ir::Argument hardswish(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  ir::Node* gate = relu6_of_x_plus_3(b, x);
  return b.call("aten.div.Tensor", {b.call1("aten.mul.Tensor", {x, gate}), int64_t{6}});
}

ir::Argument hardsigmoid(Rewriter& b, const OpCall& c) {
  return b.call("aten.div.Tensor", {relu6_of_x_plus_3(b, c.tensor(0, "self")), int64_t{6}});
}

/// torch._decomp.decompositions.dropout
ir::Argument dropout(Rewriter& b, const OpCall& c) {
  ir::Node* input = c.tensor(0, "input");
  const double p = c.number_or(1, "p", 0.5);
  const bool train = c.boolean_or(2, "train", false);
  if (train && p != 0.0) return b.call_n("aten.native_dropout.default", {input, p, train})[0];
  return b.call("aten.clone.default", {input});
}

}  // namespace

void add_functional_dropout_decompositions(DecompositionTable& t) {
  t.set(rule("aten.dropout.default", "activation", "torch._decomp.decompositions.dropout", dropout));
}

void add_activation_decompositions(DecompositionTable& t) {
  const char* f = "activation";
  t.set(rule("aten.softmax.int", f, "at::native::softmax", softmax_like("aten._softmax.default")));
  t.set(rule("aten.log_softmax.int", f, "at::native::log_softmax", softmax_like("aten._log_softmax.default")));
  t.set(rule("aten._safe_softmax.default", f, "torch._decomp.decompositions.safe_softmax", safe_softmax));
  t.set(rule("aten.silu.default", f, "torch._decomp.decompositions.silu", silu));
  t.set(rule("aten.relu6.default", f, "at::native::relu6", relu6));
  t.set(rule("aten.hardswish.default", f, "torch._decomp.decompositions.hardswish", hardswish));
  t.set(rule("aten.hardsigmoid.default", f, "torch._decomp.decompositions.hardsigmoid", hardsigmoid));
}

}  // namespace exportlens::passes

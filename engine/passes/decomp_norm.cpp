// Normalizations.
//
// batch_norm (functionalization level: it updates the running statistics
// without saying so in its schema): at::batch_norm -> native_batch_norm ->
// torch's native_batch_norm_decomposition -> _native_batch_norm_legit
// (training, functionalized to _native_batch_norm_legit_functional, whose
// outputs 3 and 4 are the new running mean and variance) or
// _native_batch_norm_legit_no_training (eval).
// layer_norm -> native_layer_norm[0]; group_norm -> native_group_norm[0].
// _weight_norm (torch.nn.utils.parametrizations.weight_norm) ->
// _weight_norm_interface -> v * (g / linalg_vector_norm(v, 2, other dims)).
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

ir::Argument batch_norm_impl(Rewriter& b, ir::Node* input, ir::Argument weight, ir::Argument bias,
                             ir::Node* running_mean, ir::Node* running_var, bool training, double momentum,
                             double eps) {
  if (!running_mean && !running_var)
    return b.call_n("aten._native_batch_norm_legit.no_stats", {input, weight, bias, training, momentum, eps})[0];
  if (!running_mean || !running_var)
    throw DecompositionError("batch_norm: running_mean and running_var must both be given or both be None");
  if (!training)
    return b.call_n("aten._native_batch_norm_legit_no_training.default",
                    {input, weight, bias, running_mean, running_var, momentum, eps})[0];
  const auto outs = b.call_n("aten._native_batch_norm_legit_functional.default",
                             {input, weight, bias, running_mean, running_var, true, momentum, eps});
  b.mutate(running_mean, outs[3]);
  b.mutate(running_var, outs[4]);
  return outs[0];
}

/// batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)
ir::Argument batch_norm(Rewriter& b, const OpCall& c) {
  return batch_norm_impl(b, c.tensor(0, "input"), c.value_or(1, "weight", ir::None{}), c.value_or(2, "bias", ir::None{}),
                         c.optional_tensor(3, "running_mean"), c.optional_tensor(4, "running_var"),
                         c.boolean_or(5, "training", false), c.number_or(6, "momentum", 0.1), c.number_or(7, "eps", 1e-5));
}

/// native_batch_norm(...) -> (out, save_mean, save_rstd): the same choice, all three outputs.
ir::Argument native_batch_norm(Rewriter& b, const OpCall& c) {
  ir::Node* input = c.tensor(0, "input");
  ir::Node* rm = c.optional_tensor(3, "running_mean");
  ir::Node* rv = c.optional_tensor(4, "running_var");
  const bool training = c.boolean_or(5, "training", false);
  const double momentum = c.number_or(6, "momentum", 0.1), eps = c.number_or(7, "eps", 1e-5);
  const ir::Argument w = c.value_or(1, "weight", ir::None{}), bias = c.value_or(2, "bias", ir::None{});
  std::vector<ir::Node*> outs;
  if (!rm && !rv) {
    outs = b.call_n("aten._native_batch_norm_legit.no_stats", {input, w, bias, training, momentum, eps});
  } else if (!training) {
    outs = b.call_n("aten._native_batch_norm_legit_no_training.default", {input, w, bias, rm, rv, momentum, eps});
  } else {
    outs = b.call_n("aten._native_batch_norm_legit_functional.default", {input, w, bias, rm, rv, true, momentum, eps});
    b.mutate(rm, outs[3]);
    b.mutate(rv, outs[4]);
  }
  return ir::ArgumentList{{outs[0], outs[1], outs[2]}, true};
}

/// layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable)
ir::Argument layer_norm(Rewriter& b, const OpCall& c) {
  return b.call_n("aten.native_layer_norm.default",
                  {c.tensor(0, "input"), c.value_or(1, "normalized_shape", ir::None{}),
                   c.value_or(2, "weight", ir::None{}), c.value_or(3, "bias", ir::None{}),
                   c.number_or(4, "eps", 1e-5)})[0];
}

/// group_norm(input, num_groups, weight, bias, eps, cudnn_enabled)
ir::Argument group_norm(Rewriter& b, const OpCall& c) {
  ir::Node* input = c.tensor(0, "input");
  const Dims sizes = b.sizes(input);
  if (sizes.size() < 2) c.fail("group_norm expects at least 2 dimensions");
  ir::Node* x = input;
  if (!b.is_contiguous(x))
    x = b.call1("aten.clone.default", {x}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
  auto contiguous = [&](ir::Argument a) -> ir::Argument {
    ir::Node* n = a.node();
    if (!n || b.is_contiguous(n)) return a;
    return b.call("aten.clone.default", {n}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
  };
  const ir::Argument w = contiguous(c.value_or(2, "weight", ir::None{}));
  const ir::Argument bias = contiguous(c.value_or(3, "bias", ir::None{}));
  return b.call_n("aten.native_group_norm.default",
                  {x, w, bias, b.sym(sizes[0]), b.sym(sizes[1]), b.sym_product(sizes, 2),
                   c.integer(1, "num_groups"), c.number_or(4, "eps", 1e-5)})[0];
}

/// _weight_norm(v, g, dim): at::native::_weight_norm. Where the fused kernel
/// may serve (dim the first or the last, no half) it calls
/// _weight_norm_interface; elsewhere it computes v * (g / norm_except_dim(v,
/// 2, dim)), which is not lowered here (kept, with a warning).
ir::Argument weight_norm(Rewriter& b, const OpCall& c) {
  ir::Node* v = b.call1("aten.contiguous.default", {c.tensor(0, "v")});
  ir::Node* g = b.call1("aten.contiguous.default", {c.tensor(1, "g")});
  const int64_t dim = c.integer_or(2, "dim", 0);
  const bool half = b.dtype(v) == ir::ScalarType::Half || b.dtype(g) == ir::ScalarType::Half;
  if (half || (dim != 0 && dim != int64_t(b.rank(v)) - 1))
    c.fail("_weight_norm over dim " + std::to_string(dim) + (half ? " in float16" : "") +
           " (norm_except_dim, not the fused kernel's path) is not lowered");
  return b.call_n("aten._weight_norm_interface.default", {v, g, dim})[0];
}

/// _weight_norm_interface(v, g, dim) -> (v * (g / norm), norm):
/// torch._decomp.decompositions._weight_norm_interface, the norm over every
/// other dim kept as size 1 (in float for a bfloat16 g, then cast back).
ir::Argument weight_norm_interface(Rewriter& b, const OpCall& c) {
  ir::Node* v = c.tensor(0, "v");
  ir::Node* g = c.tensor(1, "g");
  const int64_t dim = c.integer_or(2, "dim", 0);
  ir::ArgumentList others;
  for (int64_t i = 0; i < int64_t(b.rank(v)); ++i)
    if (i != dim) others.items.push_back(i);
  const bool bf16 = b.dtype(g) == ir::ScalarType::BFloat16;
  std::vector<ir::NamedArgument> norm_kwargs;
  if (bf16) norm_kwargs.push_back(kw("dtype", ir::ScalarType::Float));
  ir::Node* norm = b.call1("aten.linalg_vector_norm.default", {v, int64_t{2}, others, true}, norm_kwargs);
  ir::Node* norm_as_g = b.dtype(norm) == b.dtype(g) ? norm
                                                    : b.call1("aten._to_copy.default", {norm}, {kw("dtype", b.dtype(g))});
  ir::Node* scale = b.call1("aten.div.Tensor", {g, norm_as_g});
  ir::Node* w = b.call1("aten.mul.Tensor", {v, scale});
  return ir::ArgumentList{{w, norm}, true};
}

}  // namespace

void add_functional_norm_decompositions(DecompositionTable& t) {
  const char* f = "norm";
  t.set(rule("aten.batch_norm.default", f, "at::batch_norm -> torch._decomp native_batch_norm_decomposition",
             batch_norm));
  t.set(rule("aten.native_batch_norm.default", f, "torch._decomp native_batch_norm_decomposition",
             native_batch_norm));
}

void add_norm_decompositions(DecompositionTable& t) {
  const char* f = "norm";
  t.set(rule("aten.layer_norm.default", f, "at::native::layer_norm_symint", layer_norm));
  t.set(rule("aten.group_norm.default", f, "at::native::group_norm", group_norm));
  t.set(rule("aten._weight_norm.default", f, "at::native::_weight_norm", weight_norm));
  t.set(rule("aten._weight_norm_interface.default", f, "torch._decomp.decompositions._weight_norm_interface",
             weight_norm_interface));
}

}  // namespace exportlens::passes

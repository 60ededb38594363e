#include "engine/passes/requires_grad.h"

#include <string>

namespace exportlens::passes {

namespace {

/// "aten.permute.default" -> "permute".
std::string_view packet(std::string_view op) {
  if (op.rfind("aten.", 0) != 0) return {};
  op.remove_prefix(5);
  return op.substr(0, op.find('.'));
}

/// ATen ops whose outputs are views of their first input (native_functions'
/// alias annotations); autograd keeps requires_grad on views even under no_grad.
bool is_autograd_view(std::string_view name) {
  static const char* views[] = {"alias", "as_strided", "diagonal", "expand", "narrow", "permute", "select", "slice",
                                "split", "split_with_sizes", "squeeze", "t", "transpose", "unbind", "unfold",
                                "unsqueeze", "view", "view_as_real", "view_as_complex", "chunk", "tensor_split",
                                "unsafe_chunk", "indices", "values", "real", "imag", "movedim", "swapaxes"};
  for (const char* v : views)
    if (name == v) return true;
  return false;
}

/// Ops no gradient flows through even with grad enabled (derivatives.yaml
/// marks them non-differentiable, or they make a fresh tensor).
bool is_non_differentiable(std::string_view name) {
  static const char* ops[] = {"detach", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
                              "randint_like", "new_zeros", "new_ones", "new_empty", "new_full", "bernoulli",
                              "empty_permuted", "scalar_tensor", "lift_fresh_copy"};
  for (const char* o : ops)
    if (name == o) return true;
  return false;
}

}  // namespace

void RequiresGrad::set(const ir::Node* n, bool requires_grad) {
  if (!n) return;
  if (requires_grad) set_.insert(n);
  else set_.erase(n);
}

void RequiresGrad::note_call(std::string_view op, const std::vector<const ir::Node*>& inputs,
                             const ir::Argument& result) {
  const std::string_view name = packet(op);
  bool any = false;
  for (const ir::Node* in : inputs) any = any || of(in);
  const bool view = is_autograd_view(name);
  const bool base = !inputs.empty() && of(inputs.front());
  result.for_each_node([&](ir::Node* out) {
    for (const ir::Node* in : inputs)
      if (in == out) return;  // the op returned an input itself: its flag stays
    const ir::TensorMeta* t = out->value.tensor();
    if (!t) return;
    bool rg = false;
    if (name == "detach") rg = false;
    else if (view) rg = base;
    else rg = grad_enabled_ && any && !is_non_differentiable(name) && ir::is_floating(t->dtype);
    set(out, rg);
  });
}

std::vector<const ir::Node*> tensor_inputs(const std::vector<ir::Argument>& args,
                                           const std::vector<ir::NamedArgument>& kwargs) {
  std::vector<const ir::Node*> out;
  auto add = [&](ir::Node* n) {
    if (n && n->value.tensor()) out.push_back(n);
  };
  for (const auto& a : args) a.for_each_node(add);
  for (const auto& kw : kwargs) kw.value.for_each_node(add);
  return out;
}

}  // namespace exportlens::passes

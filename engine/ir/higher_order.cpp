#include "engine/ir/higher_order.h"

namespace exportlens::ir {

std::optional<size_t> wrapper_body_argument(const Target& target) {
  if (!target.is_higher_order()) return std::nullopt;
  if (target.op_name() == "wrap_with_set_grad_enabled") return 1;
  if (target.op_name() == "wrap_with_autocast") return 4;
  return std::nullopt;
}

const GraphModule* wrapper_body(const Node& call, const GraphModule& owner) {
  const auto at = wrapper_body_argument(call.target);
  if (!at || *at >= call.args().size()) return nullptr;
  const Node* g = call.args()[*at].node();
  return g && g->op == OpKind::GetAttr ? owner.submodule(g->attr) : nullptr;
}

}  // namespace exportlens::ir

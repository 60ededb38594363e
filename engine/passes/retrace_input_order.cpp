#include "engine/passes/retrace_input_order.h"

#include <map>
#include <memory>
#include <string>

namespace exportlens::passes {

namespace {

/// A submodule of the unlifted module: its children in creation order and
/// the state it owns, by kind.
struct ModuleNode {
  std::vector<std::pair<std::string, std::unique_ptr<ModuleNode>>> children;
  std::vector<size_t> parameters, buffers, constants;

  ModuleNode& child(const std::string& name) {
    for (auto& [n, c] : children)
      if (n == name) return *c;
    children.emplace_back(name, std::make_unique<ModuleNode>());
    return *children.back().second;
  }
};

/// The module owning `target` ("a.b.w" -> a.b), created as _copy_attr creates it.
ModuleNode& owner(ModuleNode& root, const std::string& target) {
  ModuleNode* m = &root;
  size_t at = 0;
  for (size_t dot = target.find('.'); dot != std::string::npos; dot = target.find('.', at)) {
    m = &m->child(target.substr(at, dot - at));
    at = dot + 1;
  }
  return *m;
}

void preorder(const ModuleNode& m, std::vector<const ModuleNode*>& out) {
  out.push_back(&m);
  for (const auto& [name, c] : m.children) preorder(*c, out);
}

}  // namespace

std::vector<size_t> retrace_input_order(const ir::GraphSignature& signature) {
  ModuleNode root;
  std::vector<size_t> tokens, custom_objs, user_inputs;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const ir::InputSpec& in = signature.inputs[i];
    const bool state = in.kind == ir::InputKind::Parameter || in.kind == ir::InputKind::Buffer ||
                       in.kind == ir::InputKind::ConstantTensor;
    if (state && in.target) {
      ModuleNode& m = owner(root, *in.target);
      (in.kind == ir::InputKind::Parameter ? m.parameters
       : in.kind == ir::InputKind::Buffer  ? m.buffers
                                           : m.constants)
          .push_back(i);
    } else if (in.kind == ir::InputKind::Token) {
      tokens.push_back(i);
    } else if (in.kind == ir::InputKind::CustomObj) {
      if (in.target) owner(root, *in.target);  // it names a submodule too
      custom_objs.push_back(i);
    } else {
      user_inputs.push_back(i);
    }
  }
  std::vector<const ModuleNode*> modules;
  preorder(root, modules);
  std::vector<size_t> order = tokens;
  for (const ModuleNode* m : modules) order.insert(order.end(), m->parameters.begin(), m->parameters.end());
  for (const ModuleNode* m : modules) {
    order.insert(order.end(), m->buffers.begin(), m->buffers.end());
    order.insert(order.end(), m->constants.begin(), m->constants.end());
  }
  order.insert(order.end(), custom_objs.begin(), custom_objs.end());
  order.insert(order.end(), user_inputs.begin(), user_inputs.end());
  return order;
}

}  // namespace exportlens::passes

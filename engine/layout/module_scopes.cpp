#include "engine/layout/module_scopes.h"

#include <algorithm>
#include <map>

namespace exportlens::layout {
namespace {

std::string class_name(const std::string& qualified_type) {
  auto dot = qualified_type.rfind('.');
  return dot == std::string::npos ? qualified_type : qualified_type.substr(dot + 1);
}

bool belongs_to_a_module(const ir::Node& node) {
  return node.op == ir::OpKind::CallFunction || node.op == ir::OpKind::GetAttr;
}

bool is_weight(ir::InputKind kind) {
  return kind == ir::InputKind::Parameter || kind == ir::InputKind::Buffer ||
         kind == ir::InputKind::ConstantTensor;
}

// Builds the scope chain of every call from its nn_module_stack.
void add_traced_scopes(ModuleScopeTree& tree, const std::vector<ir::Node*>& nodes) {
  // A scope is identified by the chain of module paths leading to it, so the
  // same module reached through two different parents stays two boxes.
  std::map<std::vector<std::string>, int> index_of_chain;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& node = *nodes[i];
    if (!belongs_to_a_module(node)) continue;
    std::vector<std::string> chain;
    int scope = -1;
    for (const ir::ModuleScope& m : node.meta.nn_module_stack) {
      if (m.path.empty()) continue;  // the root module: every node is in it
      chain.push_back(m.path);
      auto [it, inserted] = index_of_chain.emplace(chain, static_cast<int>(tree.scopes.size()));
      if (inserted) {
        ModuleScopeTree::Scope s;
        s.path = m.path;
        s.label = m.type.empty() ? m.path : m.path + ": " + class_name(m.type);
        s.parent = scope;
        s.depth = scope < 0 ? 0 : tree.scopes[scope].depth + 1;
        tree.scopes.push_back(std::move(s));
      }
      scope = it->second;
    }
    tree.scope_of[i] = scope;
  }
}

bool encloses(const ModuleScopeTree& tree, int outer, int inner) {
  for (int s = inner; s >= 0; s = tree.scopes[s].parent)
    if (s == outer) return true;
  return false;
}

// The innermost scope enclosing every user, or -1.
int common_scope_of_users(const ModuleScopeTree& tree, const ir::Node& node) {
  if (node.users().empty()) return -1;
  int common = tree.scope_of[node.users().front()->index()];
  for (const ir::Node* user : node.users()) {
    const int scope = tree.scope_of[user->index()];
    while (common >= 0 && !encloses(tree, common, scope)) common = tree.scopes[common].parent;
  }
  return common;
}

void add_weights(ModuleScopeTree& tree, const std::vector<ir::Node*>& nodes, const ir::GraphSignature& signature) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& node = *nodes[i];
    if (node.op != ir::OpKind::Placeholder) continue;
    const ir::InputSpec* spec = signature.input_named(node.name);
    if (spec && is_weight(spec->kind)) tree.scope_of[i] = common_scope_of_users(tree, node);
  }
}

}  // namespace

ModuleScopeTree module_scopes(const ir::Graph& graph, const ir::GraphSignature* signature) {
  ModuleScopeTree tree;
  const auto nodes = graph.nodes();
  tree.scope_of.assign(nodes.size(), -1);
  add_traced_scopes(tree, nodes);
  if (signature) add_weights(tree, nodes, *signature);
  for (size_t i = 0; i < nodes.size(); ++i)
    if (tree.scope_of[i] >= 0) tree.scopes[tree.scope_of[i]].nodes.push_back(nodes[i]);
  return tree;
}

}  // namespace exportlens::layout

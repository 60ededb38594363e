#include "engine/layout/module_scopes.h"

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

}  // namespace

ModuleScopeTree module_scopes(const ir::Graph& graph) {
  ModuleScopeTree tree;
  // A scope is identified by the chain of module paths leading to it, so the
  // same module reached through two different parents stays two boxes.
  std::map<std::vector<std::string>, int> index_of_chain;
  const auto nodes = graph.nodes();
  tree.scope_of.assign(nodes.size(), -1);
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
    if (scope >= 0) {
      tree.scopes[scope].nodes.push_back(&node);
      tree.scope_of[i] = scope;
    }
  }
  return tree;
}

}  // namespace exportlens::layout

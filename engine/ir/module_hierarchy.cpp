#include "engine/ir/module_hierarchy.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace exportlens::ir {
namespace {

bool belongs_to_a_module(const Node& node) {
  return node.op == OpKind::CallFunction || node.op == OpKind::GetAttr;
}

// "L__self__shared@1" is the module's second call: 1.
int call_number(const std::string& key) {
  const auto at = key.rfind('@');
  if (at == std::string::npos) return 0;
  int n = 0;
  const char* begin = key.data() + at + 1;
  const char* end = key.data() + key.size();
  auto [ptr, ec] = std::from_chars(begin, end, n);
  return ec == std::errc() && ptr == end ? n : 0;
}

// Adds `node` to the sorted list unless it is its last entry already (nodes
// are visited in graph order, so a list only ever grows at its end, except
// for inputs, which are sorted afterwards).
void add_once(std::vector<int>& list, int node) {
  if (list.empty() || list.back() != node) list.push_back(node);
}

void sort_unique(std::vector<int>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

}  // namespace

std::string ModuleHierarchy::Scope::class_name() const {
  const auto dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

std::string ModuleHierarchy::Scope::name() const {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string ModuleHierarchy::Scope::label() const {
  std::string text = path;
  const std::string cls = class_name();
  if (!cls.empty()) text += (text.empty() ? "" : ": ") + cls;
  if (call > 0) text += " (call " + std::to_string(call + 1) + ")";
  return text;
}

int ModuleHierarchy::max_depth() const {
  int depth = 0;
  for (const Scope& s : scopes) depth = std::max(depth, s.depth);
  return depth;
}

bool ModuleHierarchy::encloses(int outer, int inner) const {
  for (int s = inner; s >= 0; s = scopes[s].parent)
    if (s == outer) return true;
  return false;
}

int ModuleHierarchy::common_ancestor(int a, int b) const {
  while (scopes[a].depth > scopes[b].depth) a = scopes[a].parent;
  while (scopes[b].depth > scopes[a].depth) b = scopes[b].parent;
  while (a != b) {
    a = scopes[a].parent;
    b = scopes[b].parent;
  }
  return a;
}

int ModuleHierarchy::child_toward(int outer, int inner) const {
  int s = inner;
  while (s >= 0 && scopes[s].parent != outer) s = scopes[s].parent;
  return s;
}

std::vector<int> ModuleHierarchy::path_to(int scope) const {
  std::vector<int> path;
  for (int s = scope; s >= 0; s = scopes[s].parent) path.push_back(s);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<int> ModuleHierarchy::nodes_within(int scope) const {
  std::vector<int> out;
  std::vector<int> stack{scope};
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    out.insert(out.end(), scopes[s].nodes.begin(), scopes[s].nodes.end());
    stack.insert(stack.end(), scopes[s].children.begin(), scopes[s].children.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ModuleHierarchy::relative_path(int scope) const {
  const Scope& s = scopes[scope];
  if (s.parent <= kRoot) return s.path;
  const std::string& outer = scopes[s.parent].path;
  if (s.path.size() > outer.size() + 1 && s.path.compare(0, outer.size(), outer) == 0 && s.path[outer.size()] == '.')
    return s.path.substr(outer.size() + 1);
  return s.path;
}

int ModuleHierarchy::find_path(std::string_view path) const {
  for (size_t i = 0; i < scopes.size(); ++i)
    if (scopes[i].path == path) return static_cast<int>(i);
  return -1;
}

// torch._export.passes._node_metadata_hook's _EMPTY_NN_MODULE_STACK_KEY.
constexpr std::string_view kNoModuleKey = "_empty_nn_module_stack_from_metadata_hook";

ModuleHierarchy module_hierarchy(const Graph& graph) {
  ModuleHierarchy h;
  h.scopes.emplace_back();  // the root
  const std::vector<Node*> nodes = graph.nodes();
  h.scope_of.assign(nodes.size(), ModuleHierarchy::kRoot);

  // A scope is the chain of module-call keys leading to it: the same module
  // reached through two parents, or called twice, is two scopes.
  std::map<std::pair<int, std::string>, int> child_by_key;  // (parent, key) -> scope
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = *nodes[i];
    int scope = ModuleHierarchy::kRoot;
    if (belongs_to_a_module(node)) {
      for (const ModuleScope& m : node.meta.nn_module_stack) {
        if (m.path.empty()) continue;  // the root module: every node is in it
        // torch's passes stamp nodes they make outside any module (the
        // symbolic sizes of a dynamic export) with this stand-in: no module.
        if (m.key == kNoModuleKey) continue;
        const std::string& key = m.key.empty() ? m.path : m.key;
        auto [it, inserted] = child_by_key.try_emplace({scope, key}, static_cast<int>(h.scopes.size()));
        if (inserted) {
          ModuleHierarchy::Scope s;
          s.key = key;
          s.path = m.path;
          s.type = m.type;
          s.call = call_number(m.key);
          s.parent = scope;
          s.depth = h.scopes[scope].depth + 1;
          h.scopes[scope].children.push_back(it->second);
          h.scopes.push_back(std::move(s));
        }
        scope = it->second;
      }
    }
    h.scope_of[i] = scope;
    h.scopes[scope].nodes.push_back(static_cast<int>(i));
    for (int s = scope; s >= 0; s = h.scopes[s].parent) {
      ModuleHierarchy::Scope& up = h.scopes[s];
      if (up.first_node < 0) up.first_node = static_cast<int>(i);
      up.last_node = static_cast<int>(i);
      ++up.node_count;
      if (node.op == OpKind::CallFunction) ++up.op_count;
    }
  }

  // The values crossing each boundary: for an edge producer -> consumer, the
  // producer leaves every scope around it below their common ancestor and
  // enters every scope around the consumer below it.
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& consumer = *nodes[i];
    consumer.for_each_input([&](const Node* producer) {
      if (!producer || producer->graph() != &graph) return;
      const int p = producer->index();
      if (p < 0 || static_cast<size_t>(p) >= nodes.size() || nodes[p] != producer) return;
      const int ps = h.scope_of[p], cs = h.scope_of[i];
      if (ps == cs) return;
      const int common = h.common_ancestor(ps, cs);
      for (int s = ps; s != common; s = h.scopes[s].parent) add_once(h.scopes[s].outputs, p);
      for (int s = cs; s != common; s = h.scopes[s].parent) add_once(h.scopes[s].inputs, p);
    });
  }
  for (ModuleHierarchy::Scope& s : h.scopes) {
    sort_unique(s.inputs);
    sort_unique(s.outputs);
  }
  return h;
}

}  // namespace exportlens::ir

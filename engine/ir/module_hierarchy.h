#pragma once
// The module hierarchy of a graph: the tree of module calls its nodes were
// traced in (meta.nn_module_stack), with the nodes of each call, how many ops
// it holds and which values cross its boundary. The way a large program is
// browsed (collapsed to the upper levels, expanded one call at a time), and
// the base for finding repeated structure.
//
// A scope is one *call* of a module: torch keys a module's second call
// "L__self__shared@1", so the same module called twice is two scopes with
// the same path. Lowered programs keep their origin's module stack (each
// lowered node inherits it), so this works at every IR level.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/graph.h"

namespace exportlens::ir {

struct ModuleHierarchy {
  static constexpr int kRoot = 0;

  struct Scope {
    std::string key;   // nn_module_stack key, "L__self__blocks.0.fc", "L__self__shared@1"; "" for the root
    std::string path;  // module path, "blocks.0.fc"; "" for the root
    std::string type;  // qualified class, "torch.nn.modules.linear.Linear"; "" when unknown
    int call = 0;      // which call of the module this is: 0, then 1 for "@1", ...
    int parent = -1;   // -1 for the root
    int depth = 0;     // 0 for the root, 1 for the top-level modules, ...
    std::vector<int> children;  // child scopes, in program order (first node)
    std::vector<int> nodes;     // indices of the nodes whose innermost scope this is, in graph order
    int first_node = -1;        // smallest and largest node index inside (nested scopes included)
    int last_node = -1;
    size_t node_count = 0;      // nodes inside, nested scopes included
    size_t op_count = 0;        // call_function nodes inside, nested scopes included
    /// Nodes outside read by a node inside (the tensors entering), in graph order.
    std::vector<int> inputs;
    /// Nodes inside read by a node outside (the tensors leaving), in graph order.
    std::vector<int> outputs;

    /// "Linear" (the class without its module path); "" when unknown.
    std::string class_name() const;
    /// The last part of the path: "fc" for "blocks.0.fc", "0" for "blocks.0".
    std::string name() const;
    /// "blocks.0.fc: Linear", with " (call 2)" for a module's second call.
    std::string label() const;
  };

  /// scopes[kRoot] is the whole program; every other scope comes after its parent.
  std::vector<Scope> scopes;
  /// For each node of the graph (by Node::index()), its innermost scope.
  std::vector<int> scope_of;

  const Scope& root() const { return scopes[kRoot]; }
  const Scope& operator[](int scope) const { return scopes[static_cast<size_t>(scope)]; }
  size_t size() const { return scopes.size(); }
  /// The deepest depth of any scope (0 when there is only the root).
  int max_depth() const;

  /// True when `inner` is `outer` or lies inside it.
  bool encloses(int outer, int inner) const;
  /// The innermost scope enclosing both.
  int common_ancestor(int a, int b) const;
  /// The child of `outer` on the way down to `inner` (which `outer` must strictly enclose).
  int child_toward(int outer, int inner) const;
  /// The scopes from the root down to `scope`, both included.
  std::vector<int> path_to(int scope) const;
  /// The nodes inside a scope, nested scopes included, in graph order.
  std::vector<int> nodes_within(int scope) const;
  /// The scope's path below its parent's: "mlp" for "blocks.3.mlp" inside
  /// "blocks.3", "blocks.3" for a block of a ModuleList called from the root
  /// (a ModuleList is never called itself, so it is no scope).
  std::string relative_path(int scope) const;
  /// The first scope whose module path is `path` (its first call), or -1.
  int find_path(std::string_view path) const;
};

/// Calls and get_attr nodes go to their innermost module scope; placeholders
/// (user inputs, weights) and the output belong to the root, as do nodes
/// without a module stack. Only the graph's own nodes count (not subgraphs').
ModuleHierarchy module_hierarchy(const Graph& graph);

}  // namespace exportlens::ir

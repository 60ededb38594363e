#pragma once
// Groups a graph's nodes by the module scope they were traced in
// (meta["nn_module_stack"]), as a tree: "layers" > "layers.0" > "layers.0.fc".
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/graph_signature.h"

namespace exportlens::layout {

struct ModuleScopeTree {
  struct Scope {
    std::string path;   // "layers.0.fc"
    std::string label;  // "layers.0.fc: Linear"
    int parent = -1;    // index into scopes, -1 for a top-level scope
    int depth = 0;
    std::vector<const ir::Node*> nodes;  // nodes whose innermost scope this is, in graph order
  };
  std::vector<Scope> scopes;  // parents before children, in order of first appearance
  /// For each graph node (by Node::index()), its innermost scope or -1.
  std::vector<int> scope_of;
};

/// Calls and get_attr nodes go to their innermost nn_module_stack scope.
/// With a signature, weights (parameters, buffers, lifted constants) join the
/// innermost scope holding all their users, next to the ops that read them.
/// Unused weights stay outside: dot ranks an unconnected node first, which
/// would stretch its cluster up to the top of the graph. User inputs and the
/// output stay outside every scope: they are the program's boundary.
ModuleScopeTree module_scopes(const ir::Graph& graph, const ir::GraphSignature* signature = nullptr);

}  // namespace exportlens::layout

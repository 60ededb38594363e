#pragma once
// Groups a graph's nodes by the module scope they were traced in
// (meta["nn_module_stack"]), as a tree: "layers" > "layers.0" > "layers.0.fc".
#include <string>
#include <vector>

#include "engine/ir/graph.h"

namespace exportlens::layout {

struct ModuleScopeTree {
  struct Scope {
    std::string path;   // "layers.0.fc"
    std::string label;  // "layers.0.fc: Linear"
    int parent = -1;    // index into scopes, -1 for a top-level scope
    int depth = 0;
    std::vector<const ir::Node*> nodes;  // nodes whose innermost scope this is
  };
  std::vector<Scope> scopes;  // parents before children, in order of first appearance
  /// For each graph node (by Node::index()), its innermost scope or -1.
  std::vector<int> scope_of;
};

/// Calls and get_attr nodes go to their innermost scope. Placeholders (user
/// inputs and weights) and the output stay outside every scope: a weight sits
/// one rank above its user, which is the previous module's last rank, so
/// inside its module's box it would force that box beside the previous one
/// and the graph would drift sideways block by block.
ModuleScopeTree module_scopes(const ir::Graph& graph);

}  // namespace exportlens::layout

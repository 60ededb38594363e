#pragma once
// One node expanded into what a table lowers it to, for the GUI's "expand"
// action: a small graph whose placeholders are the node's inputs (same
// names and values), whose body is the node's decomposition (recursively, as
// the lowering does it) and whose output is the node's result.
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/passes/decomposition_table.h"

namespace exportlens::passes {

struct NodeExpansion {
  ir::GraphModule graph;
  bool decomposed = false;  // false: the table keeps the op as it is
  std::vector<std::string> warnings;
  /// The rule applied first (nullptr if none); it lives in the table given to expand_node.
  const DecompositionRule* rule = nullptr;
};

/// Throws DecompositionError for nodes that are not op calls.
NodeExpansion expand_node(const ir::Node& node, const DecompositionTable& table);

}  // namespace exportlens::passes

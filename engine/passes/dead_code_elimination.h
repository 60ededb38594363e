#pragma once
// Removes nodes whose results nobody reads (FX's eliminate_dead_code): call
// nodes without users, except those with effects (asserts, range
// constraints, in-place ops), which torch keeps as impure.
#include "engine/ir/graph.h"

namespace exportlens::passes {

/// Whether removing an unused `node` would change what the program does.
bool has_side_effects(const ir::Node& node);

/// Removes dead call nodes (to a fixed point); returns how many went.
int eliminate_dead_code(ir::Graph& graph);
/// Also in every subgraph.
int eliminate_dead_code(ir::GraphModule& gm);

}  // namespace exportlens::passes

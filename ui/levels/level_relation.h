#pragma once
// Which nodes of two IR levels correspond: a node and the nodes it was
// lowered to, found through the provenance every pass records (nearest
// origin first). Two levels are compared at their common ancestor level:
// the lower of the two, or the functional level for two core tables.
#include <QStringList>

#include <string>

#include "engine/ir/exported_program.h"
#include "ui/core/ir_level_choice.h"

namespace exportlens::ui {

/// The name of the node `steps` lowerings back that `node` comes from (0: itself).
std::string ancestor_name(const ir::Node& node, int steps);

/// The level both are lowered from (see above).
LevelChoice common_level(const LevelChoice& a, const LevelChoice& b);

/// Nodes of `other` (main graph, graph order) related to `node` of level `level`.
QStringList related_nodes(const ir::Node& node, const LevelChoice& level, const ir::ExportedProgram& other,
                          const LevelChoice& otherLevel);

}  // namespace exportlens::ui

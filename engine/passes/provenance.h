#pragma once
// Where a node of a lowered program came from. Every node a pass creates
// records its origin (ir::NodeMetadata::provenance, nearest first), so a
// Core ATen node leads back through the functional program to the node of
// the exported program, its op and its source line.
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::passes {

/// The node's origins, nearest first (empty for a node of the exported program).
const std::vector<ir::NodeOrigin>& lineage(const ir::Node& node);
/// The node of the exported program it descends from: its name and op.
ir::NodeOrigin exported_origin(const ir::Node& node);
/// Its source line (the innermost frame of its stack trace), if recorded.
std::optional<ir::SourceLocation> source_location(const ir::Node& node);
/// "addmm <- linear (core) <- linear (functional)"
std::string describe_lineage(const ir::Node& node);

/// The nodes of `program` (all subgraphs) that descend from the node named
/// `origin` of the program `depth` lowerings back (1: the program it was
/// lowered from; 0: the exported program, however many lowerings back).
std::vector<const ir::Node*> descendants(const ir::ExportedProgram& program, const std::string& origin,
                                         size_t depth = 0);

}  // namespace exportlens::passes

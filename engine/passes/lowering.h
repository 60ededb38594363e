#pragma once
// ep.run_decompositions(table): the program retraced node by node through a
// Rewriter, functionalized (functionalize.h) and decomposed by the table
// (decomposition_table.h), then cleaned of dead nodes. The input program is
// not changed. What torch would name, order and annotate the same way is
// named, ordered and annotated the same way (see engine/README.md for what
// differs).
#include <string>
#include <vector>

#include "engine/base/progress.h"
#include "engine/ir/exported_program.h"
#include "engine/passes/decomposition_table.h"

namespace exportlens::passes {

struct LoweringReport {
  std::string table;
  /// Rules that could not lower a node (the node stays as it was), and
  /// values the shape rules could not infer.
  std::vector<std::string> warnings;
  int rules_applied = 0;
  int mutated_inputs = 0;  // buffers / user inputs the program writes
  int dead_nodes_removed = 0;
};

/// Throws DecompositionError for what torch refuses too (a mutated constant,
/// a mutation through a view that cannot be written back). `progress` hears
/// of each top-level node lowered, and its token stops the lowering between
/// nodes (Cancelled).
ir::ExportedProgram run_decompositions(const ir::ExportedProgram& ep, const DecompositionTable& table,
                                       LoweringReport* report = nullptr, const Progress& progress = {});

}  // namespace exportlens::passes

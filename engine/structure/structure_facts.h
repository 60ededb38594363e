#pragma once
// The facts about nodes that the repeated-structure analysis can weigh
// beyond the program itself: the guards the solver attributes to each node
// (its provenance names the node), and per-node run times.
#include <string>
#include <utility>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"
#include "engine/structure/repeated_structure.h"

namespace exportlens::structure {

/// The guards of a solve, by the node each is attributed to.
NodeFacts guard_facts(const ir::ExportedProgram& program, const ops::SolveResult& solve);

/// Solves the program with every input dim Dim.AUTO (what it was exported
/// with, or looser), so that a dim specialized inside one instance shows as
/// that instance's guard, and returns the guards by node. A program the
/// solver cannot handle gives no guards (and `note`, when given, says why).
NodeFacts solve_guard_facts(const ir::ExportedProgram& program, std::string* note = nullptr);

/// Adds per-node run times ((node name, ms), as a run reports them).
void add_run_times(NodeFacts& facts, const ir::ExportedProgram& program,
                   const std::vector<std::pair<std::string, double>>& node_ms);

}  // namespace exportlens::structure

#pragma once
// Decomposition rules written as LibTorch functions (the SDK's
// EXPORTLENS_DECOMPOSITIONS) as passes::DecompositionRules: the rule traces
// the user's function on fake inputs with the shapes of the call being
// lowered, then replays the recorded ATen calls into the Rewriter (so
// they decompose further by the rest of the table). This adapter lives here,
// not in engine/passes, to keep el_passes free of LibTorch.
#include <string>
#include <vector>

#include "engine/passes/decomposition_table.h"
#include "engine/trace/sdk/exportlens_sdk.h"

namespace exportlens::trace {

/// `def.base` (a registered table) with `def`'s rules added or replaced.
/// Throws std::invalid_argument for an unknown base table.
passes::DecompositionTable traced_table(const sdk::DecompositionDef& def, const std::string& origin);

/// The rule lowering one call by tracing `fn`.
passes::DecompositionFn traced_rule(sdk::RuleFn fn);

/// Registers every table of a model library; returns their names.
std::vector<std::string> register_traced_tables(const std::vector<sdk::DecompositionDef>& defs,
                                                const std::string& origin);

}  // namespace exportlens::trace

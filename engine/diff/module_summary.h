#pragma once
// The diff said by module call: one line per call whose own nodes changed
// (`layers.3.attn: scaled_dot_product_attention → 9 ops (matmul, softmax, …)`,
// `layers.2.act: GELU → ReLU; gelu → relu`), one per call only one program
// makes (`+ adapter: Adapter (6 ops)`), and a stack's instances in one line
// (`layers.0–31 (32 × Block): same except layers.7`; the stacks are A's,
// engine/structure's), each changed instance's calls below it, said once
// for the instances that changed alike (`layers.0–5.mlp: shape of 1 op`).
// Calls in which nothing changed are not listed; graph inputs are the
// signature's and the weights' to say.
#include <vector>

#include "engine/diff/program_diff.h"

namespace exportlens::diff {

/// `node_a` / `node_b`: each node's entry in `diff.nodes` (by node index).
std::vector<ModuleChange> summarize_modules(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                            const ProgramDiff& diff, const std::vector<const NodeDiff*>& node_a,
                                            const std::vector<const NodeDiff*>& node_b);

}  // namespace exportlens::diff

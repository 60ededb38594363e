#pragma once
// The graph signatures of two programs: user inputs (matched by the
// matching: their kind and value), user outputs by place, mutations (a
// buffer's or input's update) by what they update, and a weight whose kind
// or persistence changed. Added and removed weights are the weight diff's.
#include <vector>

#include "engine/diff/program_diff.h"
#include "engine/diff/symbol_correspondence.h"

namespace exportlens::diff {

std::vector<SignatureChange> diff_signatures(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                             const matching::ProgramMatching& m, const SymbolCorrespondence& symbols);

}  // namespace exportlens::diff

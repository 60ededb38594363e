#pragma once
// Weights (parameters, buffers, lifted constants) of two programs, paired
// through their graph inputs' matching: shape and dtype, and with values
// compared, the largest absolute difference of their elements. Values are
// read only then (TensorPayload::data() reads an unread weight from its
// archive) and decoded from the raw bytes here, a chunk at a time (weights
// torch <= 2.8 stored pickled are raw bytes once the archive is open).
#include <vector>

#include "engine/diff/program_diff.h"

namespace exportlens::diff {

/// Those that differ; every matched one too when values are compared.
std::vector<WeightDiff> diff_weights(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                     const matching::ProgramMatching& m, const DiffOptions& options);

}  // namespace exportlens::diff

#pragma once
// A compiled model's run with its values as LibTorch values, for the
// comparison with the interpreted program (engine/numerics runs the program
// on the very inputs the compiled model was given). LibTorch headers: runtime
// sources, engine/numerics sources and tests only.
#include <ATen/core/ivalue.h>

#include <vector>

#include "engine/runtime/compiled_runner.h"

namespace exportlens::runtime {

struct CompiledRunValues {
  CompiledRunReport report;
  std::vector<c10::IValue> inputs;  // the user inputs used (read or made), on the CPU
  std::vector<at::Tensor> outputs;  // the compiled model's outputs of its first run
};

/// run_compiled, keeping the inputs and outputs.
CompiledRunValues run_compiled_values(const CompiledRunRequest& request);

}  // namespace exportlens::runtime

#pragma once
// A run's inputs as LibTorch values, for runs other than run_program's
// (numerics drives two runs on the same inputs). LibTorch headers: runtime
// sources, engine/numerics sources and tests only.
#include <ATen/core/ivalue.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/runtime/program_runner.h"

namespace exportlens::runtime {

/// The inputs `request` asks for: its inputs file, or random ones made from
/// the signature (within max_input_bytes), checked against the program's
/// signature and range constraints. Throws std::runtime_error naming the file and input.
std::vector<c10::IValue> gather_inputs(const ir::ExportedProgram& ep, const RunRequest& request);

}  // namespace exportlens::runtime

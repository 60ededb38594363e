#pragma once
// torch.export.AdditionalInputs over files: the example inputs of a program
// (its placeholders' example sizes) or of a model, more sets from torch.save
// files, the dynamic_shapes spec they imply (symbolic/additional_inputs.h),
// and the check that every set fits the program exported or solved with it
// (AdditionalInputs.verify: each input against the symbolic input shapes and
// the range constraints). LibTorch-free: the CLI and the GUI call it.
#include <filesystem>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"
#include "engine/runtime/input_check.h"
#include "engine/symbolic/additional_inputs.h"

namespace exportlens::runtime {

/// One torch.save'd set of inputs (a tuple, as `run --inputs` takes).
struct InputsFile {
  std::filesystem::path path;
  std::vector<InputDescription> inputs;
  std::vector<std::string> texts;  // each value's text ("3", "0.5", "None", "f32[2, 3] ...")
};

/// Reads and describes one inputs file (scanned before unpickling, as `run` does).
InputsFile read_inputs_file(const std::filesystem::path& path);

/// The example set a program was exported with: its user inputs' example
/// sizes (placeholder hints) and constant arguments, by forward argument name.
symbolic::ExampleSet program_examples(const ir::ExportedProgram& ep);
/// A file's set, named like `names` (the program's user inputs, in order).
symbolic::ExampleSet file_examples(const InputsFile& file, const std::vector<std::string>& names);

/// The program's user input names, in order.
std::vector<std::string> user_input_names(const ir::ExportedProgram& ep);

/// The program's inputs with the solve's symbolic sizes and range constraints
/// (placeholders and signature only): what `check --spec` would have
/// exported, as far as checking inputs against it needs.
ir::ExportedProgram with_solved_inputs(const ir::ExportedProgram& ep, const ops::SolveResult& solved);

/// AdditionalInputs.verify: per file whose inputs the program refuses, one
/// line "FILE: why" (empty: every set fits).
std::vector<std::string> verify_inputs(const ir::ExportedProgram& ep, const std::vector<InputsFile>& files);

}  // namespace exportlens::runtime

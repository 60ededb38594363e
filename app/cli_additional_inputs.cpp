// --additional-inputs IN.pt (check, trace, example): torch.export's
// AdditionalInputs. More example input sets instead of a spec: the dims that
// differ between the sets become Dim.DYNAMIC, and every set must fit the
// program exported (or solved) with that spec.
#include <iostream>

#include "app/cli_command.h"
#include "engine/runtime/additional_inputs.h"
#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::app {

std::string additional_inputs_help() {
  return "  --additional-inputs IN.pt  (repeatable) more example inputs, torch.save'd tuples as\n"
         "                `run --inputs` takes: instead of --spec, the dims whose sizes differ\n"
         "                between the example and these become Dim.DYNAMIC (torch.export's\n"
         "                AdditionalInputs), and each set must fit the resulting program\n";
}

std::vector<runtime::InputsFile> additional_inputs_option(const ParsedArgs& a) {
  std::vector<runtime::InputsFile> files;
  for (const auto& path : a.values("--additional-inputs")) files.push_back(runtime::read_inputs_file(path));
  return files;
}

std::string spec_from_additional_inputs(const ir::ExportedProgram& example_program,
                                        const std::vector<runtime::InputsFile>& files) {
  const auto names = runtime::user_input_names(example_program);
  std::vector<symbolic::ExampleSet> sets;
  for (const auto& f : files) sets.push_back(runtime::file_examples(f, names));
  return symbolic::print_dynamic_shapes(symbolic::infer_dynamic_shapes(runtime::program_examples(example_program), sets));
}

void check_additional_inputs(const ir::ExportedProgram& program, const std::vector<runtime::InputsFile>& files,
                             ops::SolveResult& result) {
  const auto problems = runtime::verify_inputs(program, files);
  if (problems.empty()) return;
  result.status = ops::SolveStatus::Violation;
  result.error_kind = "additional_inputs";
  result.message = "the additional inputs do not fit the program exported with the spec they imply:";
  for (const auto& p : problems) result.message += "\n  " + p;
}

}  // namespace exportlens::app

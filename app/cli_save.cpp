// --out FILE.pt2 (trace, example, decompose): the program written as
// torch.export.save writes it, for torch.export.load, AOTInductor or ExecuTorch.
#include "app/cli_command.h"
#include "engine/runtime/pt2_torch_options.h"

namespace exportlens::app {

std::string save_help() {
  return "  --out FILE.pt2  also write the program as torch.export.save would (torch.export.load\n"
         "                reads it: weights, example inputs, range constraints and all)\n";
}

void save_program_option(const ParsedArgs& a, const ir::ExportedProgram& ep) {
  const auto out = a.option("--out");
  if (!out) return;
  if (out->empty()) throw UsageError("--out needs a file name");
  serde::write_pt2(ep, *out, runtime::pt2_write_options());
}

}  // namespace exportlens::app

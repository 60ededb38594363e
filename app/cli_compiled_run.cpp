// run PKG.pt2 --compiled NAME: an AOTInductor compiled model run through
// LibTorch's package loader and compared with the program as ExportLens
// interprets it (engine/numerics/compiled_comparison.h). Naming the model is
// the user's consent to load and run the package's compiled code.
#include <fstream>
#include <iostream>
#include <memory>

#include "app/cli_command.h"
#include "engine/compiled/archive_contents.h"
#include "engine/numerics/compiled_comparison.h"

namespace exportlens::app {
namespace {

std::string model_names(const compiled::ArchiveContents& contents) {
  std::string names;
  for (const auto& m : contents.compiled) names += (names.empty() ? "" : ", ") + m.name;
  return names.empty() ? "none" : names;
}

}  // namespace

std::string compiled_run_help() {
  return "\nCompiled models (AOTInductor packages, aoti_compile_and_package / package_pt2):\n"
         "  exportlens run PKG.pt2 --compiled NAME [--program-file FILE.pt2]\n"
         "                (--inputs IN.pt | --random [--seed N]) [--device cpu|cuda[:N]]\n"
         "                [--warmup N] [--repeat N] [--out OUT.pt] [--json REPORT.json]\n"
         "  --compiled NAME    LOADS AND RUNS THE PACKAGE'S COMPILED CODE (its shared\n"
         "                     library, through LibTorch's AOTInductor package loader):\n"
         "                     name it only for a package you trust. Nothing is loaded\n"
         "                     without it (`exportlens info PKG.pt2` lists the models).\n"
         "                     Prints the outputs and time, each output compared with\n"
         "                     the program as ExportLens interprets it on the same\n"
         "                     inputs (close or not, max abs / rel, SNR, cosine), and\n"
         "                     per-kernel times (one profiled run) with their program\n"
         "                     nodes. Exit 1 when an output is beyond tolerance.\n"
         "  --program-file F   the exported program the model was compiled from, when\n"
         "                     the package does not hold it (without either, the model\n"
         "                     runs alone, uncompared, and --random cannot be used)\n"
         "  --json REPORT.json the run and comparison as JSON\n";
}

int run_compiled_model(const ParsedArgs& a) {
  const auto name = a.option("--compiled");
  if (!name || name->empty()) throw UsageError("--compiled expects the name of a compiled model of the package");
  if (a.positionals.size() != 1)
    throw UsageError("run --compiled takes exactly one PKG.pt2 (got " + std::to_string(a.positionals.size()) + ")");
  for (const char* o : {"--dtype", "--compare", "--profile", "--trace", "--save-inputs", "--allow-op"})
    if (a.option(o)) throw UsageError(std::string(o) + " does not apply to a compiled model (--compiled)");
  for (const char* f : {"--compare-nodes", "--cuda-graph", "--time"})
    if (a.flag(f)) throw UsageError(std::string(f) + " does not apply to a compiled model (--compiled)");

  numerics::CompiledComparisonRequest req;
  runtime::CompiledRunRequest& run = req.run;
  run.package = a.positionals[0];
  run.model = *name;
  run.consent = true;  // naming the model with --compiled is the consent (the help says what it does)
  run.limits = limits_option(a);
  inputs_options(a, run.inputs_file, run.random_inputs, run.seed);
  run.device = a.option("--device").value_or("cpu");
  run.warmup = count_option(a, "--warmup", 0, 0);
  run.repeat = count_option(a, "--repeat", 1, 1);
  if (auto out = a.option("--out")) run.outputs_file = *out;

  // What the archive holds (its index and metadata: nothing is loaded here).
  const compiled::ArchiveContents contents = compiled::read_archive_contents(run.package, run.limits);
  const compiled::CompiledModel* model = contents.compiled_model(*name);
  if (!model)
    throw Error(ErrorKind::Usage, {.file = run.package.string()},
                "no compiled model '" + *name + "' (compiled models: " + model_names(contents) + ")");
  req.model = std::make_shared<const compiled::CompiledModel>(*model);
  // The program to compare with: --program-file's, else the one the archive holds for this model
  // (--program NAME picks another), else none.
  const std::string own = contents.program_of(*model);
  if (a.option("--program-file") || a.option("--program") || !own.empty()) {
    ParsedArgs source = a;
    if (!a.option("--program-file") && !a.option("--program")) source.options["--program"] = own;
    run.program = std::make_shared<const ir::ExportedProgram>(load_program_argument(source, "run", Weights::Load));
  }
  if (!run.program && run.random_inputs)
    throw UsageError("--random makes inputs from the exported program, and " + run.package.string() +
                     " holds none for '" + *name + "': give --inputs IN.pt, or the program with --program-file");

  const numerics::CompiledComparison result = numerics::compare_compiled(req);
  std::cout << numerics::format_compiled_comparison(result);
  if (auto json = a.option("--json")) {
    const std::string text = numerics::compiled_comparison_json(result);
    std::ofstream out(*json, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw Error(ErrorKind::Input, {.file = *json}, "cannot write");
  }
  return result.compared && !result.all_close ? 1 : 0;
}

}  // namespace exportlens::app

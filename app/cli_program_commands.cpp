// print, info, dot: commands over one FILE.pt2 (run: cli_run_command.cpp).
#include <algorithm>
#include <iostream>
#include <set>

#include "app/cli_command.h"
#include "engine/ir/dot_writer.h"
#include "engine/ir/printer.h"
#include "engine/ir/release_print.h"
#include "engine/ir/program_summary.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/sources/program_source.h"

namespace exportlens::app {

serde::ReadLimits limits_option(const ParsedArgs& a) {
  serde::ReadLimits limits;
  const auto text = a.option("--limit");
  if (!text) return limits;
  size_t start = 0;
  while (start <= text->size()) {
    const size_t comma = std::min(text->find(',', start), text->size());
    try {
      serde::set_limit(limits, text->substr(start, comma - start));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--limit: ") + e.what());
    }
    start = comma + 1;
  }
  return limits;
}

std::string file_kinds() {
  return "a .pt2 archive, a model library (LIB.so), example:NAME, a capture folder or a torch trace log";
}

std::string file_help() {
  return "\nAn archive with several programs (package_pt2) opens \"model\" or its first;\n"
         "--program NAME picks another. An AOTInductor package holds compiled models\n"
         "and perhaps their program; --program-file FILE.pt2 names the program a\n"
         "package without one was compiled from.\n"
         "\nFILE.pt2 may also be a C++ model library (LIB.so: its only model is traced\n"
         "with its own spec), example:NAME (a built-in example, traced; `exportlens\n"
         "example --list` lists them), a capture folder `exportlens capture` wrote\n"
         "(--program N picks the attempt: its program, its draft program or the partial\n"
         "graph its trace left; by default the first failed attempt) or a torch trace\n"
         "log (TORCH_TRACE's file or folder: the graph it holds).\n"
         "\n--limit KEY=VALUE[,KEY=VALUE...] raises (or lowers) what a file may make\n"
         "ExportLens read, nest and allocate; the defaults:\n" +
         serde::describe_limits();
}

ir::ExportedProgram load_program_source(const ParsedArgs& a, const std::string& source, Weights weights) {
  // A model library or example:NAME is traced with its own spec; the dispatcher's schemas bind the
  // arguments of .pt2 files that do not record how they were passed (torch <= 2.6).
  sources::OpenRequest request;
  request.read = runtime::pt2_read_options();
  request.read.limits = limits_option(a);
  request.read.load_weights = weights == Weights::Load;
  request.program = a.option("--program").value_or("");
  std::vector<std::string> notes;
  ir::ExportedProgram program = sources::open_program(source, request, &notes);
  // A graph read back from a log's text may have lines it could not read: say so, not silently.
  constexpr size_t kShown = 5;
  for (size_t i = 0; i < notes.size() && i < kShown; ++i) std::cerr << "note: " << source << ": " << notes[i] << "\n";
  if (notes.size() > kShown) std::cerr << "note: " << source << ": " << notes.size() - kShown << " more lines left out\n";
  return program;
}

ir::ExportedProgram load_program_argument(const ParsedArgs& a, const std::string& command, Weights weights) {
  if (a.positionals.size() != 1)
    throw UsageError(command + " takes exactly one FILE.pt2 (got " + std::to_string(a.positionals.size()) + ")");
  // A compiled package beside the program it was compiled from: the program is that file's.
  return load_program_source(a, a.option("--program-file").value_or(a.positionals[0]), weights);
}

namespace {

int cmd_print(const ParsedArgs& a) {
  // print(ep) writes str(ep) and a newline.
  const auto ep = load_program_at_ir(a, "print");
  // --as-release: the layout of the torch that wrote the file (2.5 ... 2.9 differ from 2.13's).
  std::cout << (a.flag("--as-release") ? ir::print_program_as_release(ep, ir::torch_release_of(ep.torch_version))
                                       : ir::print_program(ep))
            << "\n";
  return 0;
}

int cmd_info(const ParsedArgs& a) {
  if (a.flag("--structure")) return info_structure(a);
  if (a.flag("--time")) throw UsageError("--time applies to info --structure");
  if (a.positionals.size() == 1)
    if (const auto kind = sources::match_source(a.positionals[0]);
        kind == sources::SourceKind::Capture || kind == sources::SourceKind::TraceLog)
      return info_capture(a, kind);
  // An archive of several programs or with compiled models says what it holds first.
  if (!print_archive_contents(a)) return 0;
  const auto ep = load_program_at_ir(a, "info");
  std::cout << ir::format_summary(ep, ir::summarize(ep));
  print_kernel_maps(a, ep);
  if (a.option("--ir") == "core") std::cout << core_ir_report(ep);
  const auto missing = runtime::unavailable_operators(ep);
  if (!missing.empty()) {
    std::cout << "not runnable here (operators not registered in this process):\n";
    for (const auto& m : missing) std::cout << "  " << m << "\n";
  }
  const auto refused = runtime::refused_operators(ep);
  if (!refused.empty()) {
    std::cout << "refused by run unless allowed with --allow-op (they do more than compute):\n";
    for (const auto& r : refused) std::cout << "  " << r.str() << "\n";
  }
  return 0;
}

int cmd_dot(const ParsedArgs& a) {
  ir::DotOptions opt;
  opt.module_clusters = !a.flag("--no-clusters");
  std::cout << ir::to_dot(load_program_argument(a, "dot"), opt);
  return 0;
}

}  // namespace

std::vector<Command> program_commands() {
  return {
      {"print", "print the program exactly as torch's print(ep)",
       "usage: exportlens print FILE.pt2 [--ir training|functional|core] [--table NAME] [--as-release]\n\n"
       "Prints the exported program in torch's print(ep) form; with --ir, lowered to\n"
       "that IR first (as `exportlens decompose`). The text is torch 2.13's; with\n"
       "--as-release, laid out as the torch release that wrote the file printed it.\n" + file_help(),
       {"--ir", "--table", "--limit", "--program", "--program-file"}, {"--as-release"}, cmd_print},
      {"info", "summary: op histogram, inputs/outputs, parameter count and bytes",
       "usage: exportlens info FILE.pt2 [--ir training|functional|core] [--table NAME]\n"
       "       exportlens info FILE.pt2 --structure [--time] [--ir ...]\n\n"
       "Prints a summary: ops by count, inputs and outputs with their kinds and\n"
       "shapes, parameter and buffer sizes, range constraints, and any op this\nprocess cannot run. "
       "With --ir, of the program lowered to that IR; --ir core\nalso lists any op outside the Core ATen set.\n"
       "Ops that `run` refuses without --allow-op are listed too.\n\n"
       "An archive holding several programs or compiled models (an AOTInductor\n"
       "package) is listed first: its programs (--program NAME picks one), and per\n"
       "compiled model its device, inputs, outputs, constants, kernels and files (its\n"
       "shared library is listed, never loaded). A package without its program shows\n"
       "that alone; --program-file FILE.pt2 names the program it was compiled from,\n"
       "and the kernels are mapped onto its nodes (`exportlens kernels` lists them).\n\n"
       "--structure prints the module tree instead, with repeated structure folded:\n"
       "a run of sibling module calls that repeats is one line, `6 × Block (blocks.0 …\n"
       "blocks.5)`, with its representative instance below it and one `!` line per\n"
       "instance that differs from the majority, naming what differs (submodules,\n"
       "ops, weight shapes, node shapes, attributes, wiring, guards attributed to its\n"
       "nodes when re-solved with every dim Dim.AUTO). A stack whose instances are\n"
       "each built otherwise (stages of other depths and widths) flags none: its\n"
       "`settings:` line names what varies (width, depth, submodules). --time also\n"
       "runs the program once on random inputs and flags instances much slower or\n"
       "faster than their siblings.\n" + file_help(),
       {"--ir", "--table", "--limit", "--program", "--program-file"}, {"--structure", "--time"}, cmd_info},
      {"dot", "print the graph as Graphviz DOT",
       "usage: exportlens dot FILE.pt2 [--no-clusters]\n\nPrints Graphviz DOT text; nodes are grouped in module-scope clusters\n"
       "unless --no-clusters is given.\n" + file_help(),
       {"--limit", "--program", "--program-file"}, {"--no-clusters"}, cmd_dot},
  };
}

}  // namespace exportlens::app

// print, info, run, dot: commands over one FILE.pt2.
#include <iostream>

#include "app/cli_command.h"
#include "engine/ir/dot_writer.h"
#include "engine/ir/printer.h"
#include "engine/ir/program_summary.h"
#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"

namespace exportlens::app {

ir::ExportedProgram load_program_argument(const ParsedArgs& a, const std::string& command) {
  if (a.positionals.size() != 1)
    throw UsageError(command + " takes exactly one FILE.pt2 (got " + std::to_string(a.positionals.size()) + ")");
  return serde::read_pt2(a.positionals[0]);
}

namespace {

int cmd_print(const ParsedArgs& a) {
  // print(ep) writes str(ep) and a newline.
  std::cout << ir::print_program(load_program_at_ir(a, "print")) << "\n";
  return 0;
}

int cmd_info(const ParsedArgs& a) {
  const auto ep = load_program_at_ir(a, "info");
  std::cout << ir::format_summary(ep, ir::summarize(ep));
  if (a.option("--ir") == "core") std::cout << core_ir_report(ep);
  const auto missing = runtime::unavailable_operators(ep);
  if (!missing.empty()) {
    std::cout << "not runnable here (operators not registered in this process):\n";
    for (const auto& m : missing) std::cout << "  " << m << "\n";
  }
  return 0;
}

int cmd_dot(const ParsedArgs& a) {
  ir::DotOptions opt;
  opt.module_clusters = !a.flag("--no-clusters");
  std::cout << ir::to_dot(load_program_argument(a, "dot"), opt);
  return 0;
}

int cmd_run(const ParsedArgs& a) {
  const auto ep = load_program_argument(a, "run");
  runtime::RunRequest req;
  if (auto in = a.option("--inputs")) req.inputs_file = *in;
  req.random_inputs = a.flag("--random");
  if (req.inputs_file && req.random_inputs) throw UsageError("give either --inputs or --random, not both");
  if (!req.inputs_file && !req.random_inputs) throw UsageError("run needs --inputs IN.pt or --random");
  if (auto seed = a.option("--seed")) {
    try {
      req.seed = std::stoull(*seed);
    } catch (const std::exception&) {
      throw UsageError("--seed expects a non-negative integer, got '" + *seed + "'");
    }
  }
  if (auto out = a.option("--out")) req.outputs_file = *out;
  if (auto used = a.option("--save-inputs")) req.used_inputs_file = *used;
  req.device = a.option("--device").value_or("cpu");
  req.time_nodes = a.flag("--time");
  const auto report = runtime::run_program(ep, req);
  for (size_t i = 0; i < report.outputs.size(); ++i) std::cout << "output " << i << ": " << report.outputs[i].text << "\n";
  std::cout << "ran on " << report.device << " in " << report.total_ms << " ms\n";
  if (req.time_nodes)
    for (const auto& t : report.node_times) std::cout << "  " << t.milliseconds << " ms  " << t.node << "\n";
  return 0;
}

}  // namespace

std::vector<Command> program_commands() {
  return {
      {"print", "print the program exactly as torch's print(ep)",
       "usage: exportlens print FILE.pt2 [--ir training|functional|core] [--table NAME]\n\n"
       "Prints the exported program in torch's print(ep) form; with --ir, lowered to\n"
       "that IR first (as `exportlens decompose`).\n",
       {"--ir", "--table"}, {}, cmd_print},
      {"info", "summary: op histogram, inputs/outputs, parameter count and bytes",
       "usage: exportlens info FILE.pt2 [--ir training|functional|core] [--table NAME]\n\n"
       "Prints a summary: ops by count, inputs and outputs with their kinds and\n"
       "shapes, parameter and buffer sizes, range constraints, and any op this\nprocess cannot run. "
       "With --ir, of the program lowered to that IR; --ir core\nalso lists any op outside the Core ATen set.\n",
       {"--ir", "--table"}, {}, cmd_info},
      {"run", "run the program on the CPU (or a GPU) with inputs from a file or random",
       "usage: exportlens run FILE.pt2 (--inputs IN.pt | --random [--seed N]) [--out OUT.pt]\n"
       "                      [--save-inputs USED.pt] [--device cpu|cuda[:N]] [--time]\n\n"
       "Runs the graph through LibTorch. IN.pt is a torch.save'd tuple of the user\n"
       "inputs; OUT.pt receives the user outputs as a torch.save'd tuple, readable\n"
       "with torch.load. Inputs are checked against the signature and the range\n"
       "constraints first.\n",
       {"--inputs", "--out", "--seed", "--device", "--save-inputs"}, {"--random", "--time"}, cmd_run},
      {"dot", "print the graph as Graphviz DOT",
       "usage: exportlens dot FILE.pt2 [--no-clusters]\n\nPrints Graphviz DOT text; nodes are grouped in module-scope clusters\n"
       "unless --no-clusters is given.\n",
       {}, {"--no-clusters"}, cmd_dot},
  };
}

}  // namespace exportlens::app

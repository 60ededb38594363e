// print, info, run, dot: commands over one FILE.pt2.
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

std::string file_help() {
  return "\nFILE.pt2 may also be a C++ model library (LIB.so: its only model is traced\n"
         "with its own spec) or example:NAME (a built-in example, traced; `exportlens\n"
         "example --list` lists them).\n"
         "\n--limit KEY=VALUE[,KEY=VALUE...] raises (or lowers) what a file may make\n"
         "ExportLens read, nest and allocate; the defaults:\n" +
         serde::describe_limits();
}

ir::ExportedProgram load_program_argument(const ParsedArgs& a, const std::string& command, Weights weights) {
  if (a.positionals.size() != 1)
    throw UsageError(command + " takes exactly one FILE.pt2 (got " + std::to_string(a.positionals.size()) + ")");
  // A model library or example:NAME is traced with its own spec; the dispatcher's schemas bind the
  // arguments of .pt2 files that do not record how they were passed (torch <= 2.6).
  sources::OpenRequest request;
  request.read = runtime::pt2_read_options();
  request.read.limits = limits_option(a);
  request.read.load_weights = weights == Weights::Load;
  return sources::open_program(a.positionals[0], request);
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
  const auto ep = load_program_at_ir(a, "info");
  std::cout << ir::format_summary(ep, ir::summarize(ep));
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

// "--allow-op aten::from_file,aten::save": the names, split at commas.
std::set<std::string> allowed_ops_option(const ParsedArgs& a) {
  std::set<std::string> ops;
  const auto text = a.option("--allow-op");
  if (!text) return ops;
  size_t start = 0;
  while (start <= text->size()) {
    const size_t comma = std::min(text->find(',', start), text->size());
    const std::string name = text->substr(start, comma - start);
    if (name.find("::") == std::string::npos && name.find('.') == std::string::npos)
      throw UsageError("--allow-op expects NAMESPACE::OP[.OVERLOAD] (e.g. aten::from_file), got '" + name + "'");
    ops.insert(name);
    start = comma + 1;
  }
  return ops;
}

int cmd_run(const ParsedArgs& a) {
  runtime::RunRequest req;
  req.allowed_ops = allowed_ops_option(a);
  const serde::ReadLimits limits = limits_option(a);
  req.max_input_bytes = limits.max_input_bytes;
  req.max_run_bytes = limits.max_run_bytes;
  const auto ep = load_program_argument(a, "run", Weights::Load);
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
       "usage: exportlens print FILE.pt2 [--ir training|functional|core] [--table NAME] [--as-release]\n\n"
       "Prints the exported program in torch's print(ep) form; with --ir, lowered to\n"
       "that IR first (as `exportlens decompose`). The text is torch 2.13's; with\n"
       "--as-release, laid out as the torch release that wrote the file printed it.\n" + file_help(),
       {"--ir", "--table", "--limit"}, {"--as-release"}, cmd_print},
      {"info", "summary: op histogram, inputs/outputs, parameter count and bytes",
       "usage: exportlens info FILE.pt2 [--ir training|functional|core] [--table NAME]\n\n"
       "Prints a summary: ops by count, inputs and outputs with their kinds and\n"
       "shapes, parameter and buffer sizes, range constraints, and any op this\nprocess cannot run. "
       "With --ir, of the program lowered to that IR; --ir core\nalso lists any op outside the Core ATen set.\n"
       "Ops that `run` refuses without --allow-op are listed too.\n" + file_help(),
       {"--ir", "--table", "--limit"}, {}, cmd_info},
      {"run", "run the program on the CPU (or a GPU) with inputs from a file or random",
       "usage: exportlens run FILE.pt2 (--inputs IN.pt | --random [--seed N]) [--out OUT.pt]\n"
       "                      [--save-inputs USED.pt] [--device cpu|cuda[:N]] [--time]\n"
       "                      [--allow-op NS::OP[,NS::OP...]] [--limit KEY=VALUE,...]\n\n"
       "Runs the graph through LibTorch. IN.pt is a torch.save'd tuple of the user\n"
       "inputs; OUT.pt receives the user outputs as a torch.save'd tuple, readable\n"
       "with torch.load. Inputs are checked against the signature and the range\n"
       "constraints first.\n\n"
       "Only ops that compute on tensors run by default: a program calling an op\n"
       "that touches files, processes, the network, process-wide state or raw\n"
       "memory (aten::from_file, aten::save, aten::_print, aten::set_, ...) is\n"
       "refused before any node runs; --allow-op names the ones you trust\n"
       "(`exportlens info` lists them).\n" + file_help(),
       {"--inputs", "--out", "--seed", "--device", "--save-inputs", "--allow-op", "--limit"}, {"--random", "--time"}, cmd_run},
      {"dot", "print the graph as Graphviz DOT",
       "usage: exportlens dot FILE.pt2 [--no-clusters]\n\nPrints Graphviz DOT text; nodes are grouped in module-scope clusters\n"
       "unless --no-clusters is given.\n" + file_help(),
       {"--limit"}, {"--no-clusters"}, cmd_dot},
  };
}

}  // namespace exportlens::app

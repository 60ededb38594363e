// run (on the CPU or a GPU: times, kernels, memory, CUDA graphs, numerics
// against the CPU, profile and trace files) and devices.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>

#include "app/cli_command.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/run_profile_json.h"

namespace exportlens::app {
namespace {

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

void write_text(const std::string& path, const std::string& text, const std::string& what) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())))
    throw std::runtime_error(path + ": cannot write the " + what);
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

void print_comparison(const runtime::Comparison& c) {
  std::cout << "compared with " << c.reference_device << " (" << c.reference_precision << "): "
            << (c.all_close ? "all outputs close" : "NOT all outputs close") << "\n";
  for (const auto& o : c.outputs) {
    std::cout << "  " << o.name << ": ";
    if (!o.mismatch.empty()) {
      std::cout << "not comparable: " << o.mismatch << "\n";
      continue;
    }
    std::cout << "max abs " << fmt(o.max_abs) << ", max rel " << fmt(o.max_rel) << ", "
              << (o.close ? "close" : std::to_string(o.mismatched) + " of " + std::to_string(o.elements) + " elements beyond")
              << " (" << o.dtype << ": rtol " << fmt(o.tolerance.rtol) << ", atol " << fmt(o.tolerance.atol) << ")\n";
  }
  if (!c.nodes.empty())
    std::cout << "  per node: " << c.nodes.size() << " compared; "
              << (c.first_divergent_node ? "first beyond tolerance: '" + *c.first_divergent_node + "'" : "all within tolerance")
              << "\n";
  if (!c.nodes_note.empty()) std::cout << "  " << c.nodes_note << "\n";
}

int cmd_run(const ParsedArgs& a) {
  if (a.option("--compiled")) return run_compiled_model(a);
  runtime::RunRequest req;
  req.allowed_ops = allowed_ops_option(a);
  req.limits = limits_option(a);
  inputs_options(a, req.inputs_file, req.random_inputs, req.seed);
  if (auto out = a.option("--out")) req.outputs_file = *out;
  if (auto used = a.option("--save-inputs")) req.used_inputs_file = *used;
  req.device = a.option("--device").value_or("cpu");
  if (auto dtype = a.option("--dtype")) {
    const auto p = runtime::parse_precision(*dtype);
    if (!p) throw UsageError("--dtype expects fp32, bf16 or fp16, got '" + *dtype + "'");
    req.precision = *p;
  }
  req.warmup = count_option(a, "--warmup", 0, 0);
  req.repeat = count_option(a, "--repeat", 1, 1);
  if (auto cmp = a.option("--compare")) {
    if (*cmp != "cpu") throw UsageError("--compare takes cpu (the reference device), got '" + *cmp + "'");
    req.compare_cpu = true;
  }
  req.compare_nodes = a.flag("--compare-nodes");
  if (req.compare_nodes) req.compare_cpu = true;
  req.cuda_graph = a.flag("--cuda-graph");
  const auto profile = a.option("--profile"), trace = a.option("--trace");
  req.time_nodes = a.flag("--time") || profile || trace;
  req.profile_device = profile || trace;
  std::string why, fix;
  if (!runtime::device_available(req.device, &why, &fix))
    throw std::runtime_error("cannot run on " + req.device + ": " + why + " (" + fix + ")");

  const auto ep = load_program_argument(a, "run", Weights::Load);
  const auto report = runtime::run_program(ep, req);
  for (size_t i = 0; i < report.outputs.size(); ++i) std::cout << "output " << i << ": " << report.outputs[i].text << "\n";
  std::cout << "ran on " << report.device << " in " << report.total_ms << " ms (" << report.time_source;
  if (report.repeat > 1 || report.warmup > 0)
    std::cout << "; median of " << report.repeat << " run" << (report.repeat == 1 ? "" : "s") << " after "
              << report.warmup << " warm-up";
  std::cout << ")\n";
  if (!report.cast.precision.empty()) std::cout << report.cast.text() << "\n";
  if (report.comparison) print_comparison(*report.comparison);
  if (report.cuda_graph) {
    const auto& g = *report.cuda_graph;
    if (g.captured)
      std::cout << "CUDA graph: replay " << fmt(g.replay_ms) << " ms vs eager " << fmt(g.eager_ms) << " ms ("
                << fmt(g.replay_ms > 0 ? g.eager_ms / g.replay_ms : 0) << "x, median of " << g.replays << ")"
                << (g.replay_matches_eager ? (*g.replay_matches_eager ? "; replay outputs equal eager" : "; replay outputs DIFFER from eager") : "")
                << "\n";
    else
      std::cout << "CUDA graph: not captured: " << g.why << "\n";
  }
  if (!report.kernels_note.empty() && req.profile_device) std::cout << "kernels: " << report.kernels_note << "\n";
  if (a.flag("--time"))
    for (const auto& t : report.node_times) std::cout << "  " << t.milliseconds << " ms  " << t.node << "\n";
  const std::string program = a.positionals.empty() ? "" : a.positionals[0];
  if (profile) write_text(*profile, runtime::profile_json(report, program), "profile");
  if (trace) write_text(*trace, runtime::chrome_trace_json(report, program), "trace");
  return 0;
}

int cmd_devices(const ParsedArgs& a) {
  if (!a.positionals.empty()) throw UsageError("devices takes no arguments");
  std::string why;
  const auto devices = runtime::list_devices(&why);
  std::cout << "cpu\n";
  for (const auto& d : devices) std::cout << d.str() << "\n";
  if (devices.empty()) {
    std::string reason, fix;
    runtime::device_available("cuda", &reason, &fix);
    std::cout << "no GPU: " << why << "\n  " << fix << "\n";
  }
  return 0;
}

}  // namespace

int count_option(const ParsedArgs& a, const std::string& name, int fallback, int least) {
  const auto text = a.option(name);
  if (!text) return fallback;
  size_t used = 0;
  long value = -1;
  try {
    value = std::stol(*text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text->size() || value < least || value > 1000000)
    throw UsageError(name + " expects an integer from " + std::to_string(least) + " to 1000000, got '" + *text + "'");
  return static_cast<int>(value);
}

void inputs_options(const ParsedArgs& a, std::optional<std::filesystem::path>& file, bool& random, uint64_t& seed) {
  if (auto in = a.option("--inputs")) file = *in;
  random = a.flag("--random");
  if (file && random) throw UsageError("give either --inputs or --random, not both");
  if (!file && !random) throw UsageError("run needs --inputs IN.pt or --random");
  seed = 0;
  if (const auto text = a.option("--seed")) {
    try {
      seed = std::stoull(*text);
    } catch (const std::exception&) {
      throw UsageError("--seed expects a non-negative integer, got '" + *text + "'");
    }
  }
}

std::vector<Command> run_commands() {
  return {
      {"run", "run the program on the CPU or a GPU: outputs, times, kernels, memory, numerics vs the CPU",
       "usage: exportlens run FILE.pt2 (--inputs IN.pt | --random [--seed N]) [--out OUT.pt]\n"
       "       exportlens run PKG.pt2 --compiled NAME [--program-file FILE.pt2] ...  (below)\n"
       "                      [--save-inputs USED.pt] [--device cpu|cuda[:N]] [--dtype fp32|bf16|fp16]\n"
       "                      [--warmup N] [--repeat N] [--cuda-graph] [--compare cpu] [--compare-nodes]\n"
       "                      [--profile OUT.json] [--trace OUT.json] [--time]\n"
       "                      [--allow-op NS::OP[,NS::OP...]] [--limit KEY=VALUE,...]\n\n"
       "Runs the graph through LibTorch. IN.pt is a torch.save'd tuple of the user\n"
       "inputs; OUT.pt receives the user outputs as a torch.save'd tuple, readable\n"
       "with torch.load. Inputs are checked against the signature and the range\n"
       "constraints first.\n\n"
       "The outputs are those of the first run (from the program's own buffers, as\n"
       "one ep.module()(*inputs) call); --warmup N more runs follow, then --repeat N\n"
       "timed ones (default 0 and 1: the first run is the timed one). Times are the\n"
       "median run's (its node times add up within its total): host clock on the\n"
       "CPU, CUDA events on a GPU (the device's time).\n"
       "  --dtype bf16|fp16  cast floating parameters, buffers and inputs\n"
       "                     (as ep.module().to(dtype)); the report says what was cast\n"
       "  --compare cpu      also run on the CPU as exported, same inputs: per output\n"
       "                     max abs / rel error and allclose with torch.testing's\n"
       "                     tolerances for the dtype\n"
       "  --compare-nodes    also compare every node's value, naming the first node\n"
       "                     beyond tolerance (implies --compare cpu)\n"
       "  --cuda-graph       capture the whole program as a CUDA graph and time its\n"
       "                     replay against eager runs (or say why it cannot be captured)\n"
       "  --profile OUT.json per-node JSON: name, op, ms, kernels (CUPTI: name, ms, grid,\n"
       "                     block) and memory (live and peak bytes); with --device cpu\n"
       "                     host times and no kernels\n"
       "  --trace OUT.json   Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
       "  --time             print per-node times\n\n"
       "Only ops that compute on tensors run by default: a program calling an op\n"
       "that touches files, processes, the network, process-wide state or raw\n"
       "memory (aten::from_file, aten::save, aten::_print, aten::set_, ...) is\n"
       "refused before any node runs; --allow-op names the ones you trust\n"
       "(`exportlens info` lists them).\n" + compiled_run_help() + file_help(),
       {"--inputs", "--out", "--seed", "--device", "--save-inputs", "--allow-op", "--limit", "--program", "--dtype", "--warmup",
        "--repeat", "--compare", "--profile", "--trace", "--compiled", "--program-file", "--json"},
       {"--random", "--time", "--cuda-graph", "--compare-nodes"},
       cmd_run},
      {"devices", "the devices this build can run on (CPU, each GPU: name, memory, compute capability)",
       "usage: exportlens devices\n\nLists the CPU and every CUDA device this build of ExportLens can use, or\n"
       "why there is none and what would change that.\n",
       {}, {}, cmd_devices},
  };
}

}  // namespace exportlens::app

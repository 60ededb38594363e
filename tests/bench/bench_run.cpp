// bench_run: ExportLens's interpreter on the CPU against torch's
// ep.module()(*inputs) on small-op programs (where per-node overhead is the
// whole cost), measured in the same run.
//
//   ninja bench_run && build/tests/bench/bench_run [--repeat N]
//
// The Python side (bench_run.py, the venv's python, one intra-op thread)
// exports the programs and times ep.module()(*inputs); this side runs each
// program with runtime::run_program (20 warm-up runs, then the median of N
// timed runs, one intra-op thread too; reading the file and the inputs is not
// timed on either side). Prints per-program medians and the ratio
// (target: ExportLens <= 0.5x torch's time); exits 2 when one misses it.
#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"

using namespace exportlens;

int main(int argc, char** argv) {
  int repeat = 500;
  for (int i = 1; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
  const std::string dir = EXPORTLENS_BENCH_DIR "/run";
  const std::string cmd = std::string("\"") + EXPORTLENS_PYTHON + "\" \"" + EXPORTLENS_BENCH_SCRIPT + "\" --out \"" + dir +
                          "\" --repeat " + std::to_string(repeat);
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "bench_run: " << EXPORTLENS_BENCH_SCRIPT << " failed\n";
    return 1;
  }
  at::set_num_threads(1);
  std::ifstream in(dir + "/torch_times.json");
  const auto torch_times = nlohmann::json::parse(in);
  std::printf("%-18s %6s %14s %14s %8s\n", "program", "nodes", "exportlens ms", "torch ms", "ratio");
  bool missed = false;
  for (const auto& [name, t] : torch_times.items()) {
    const auto ep = serde::read_pt2(dir + "/" + name + "/program.pt2");
    runtime::RunRequest req;
    req.inputs_file = dir + "/" + name + "/inputs.pt";
    req.warmup = 20;
    req.repeat = repeat;
    const auto report = runtime::run_program(ep, req);
    const double torch_ms = t["ms"].get<double>();
    const double ratio = report.total_ms / torch_ms;
    missed = missed || ratio > 0.5;
    std::printf("%-18s %6d %14.4f %14.4f %7.2fx\n", name.c_str(), t["nodes"].get<int>(), report.total_ms, torch_ms, ratio);
  }
  std::printf("target: exportlens <= 0.5x torch's time on every program: %s\n", missed ? "MISSED" : "met");
  return missed ? 2 : 0;
}

// bench_open: how long ExportLens takes to open a 50,000-node program (a
// stack of transformer blocks exported by torch, tests/bench/bench_open.py),
// beside torch.export.load of the same file, in one run. The target:
// under 2 s. Opening is read_pt2 without weights (what print, info, check and
// the GUI's first view need) and with them (what run needs).
//
//   bench_open [--dir DIR] [--runs N]

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/ir/printer.h"
#include "engine/serde/pt2_reader.h"
#include "tests/bench/bench_timing.h"

using namespace exportlens;
using bench::median_ms;
using bench::Timing;

int main(int argc, char** argv) {
  std::string dir = EXPORTLENS_BENCH_DIR;
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dir") dir = argv[i + 1];
    else if (a == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
  }
  nlohmann::json info;
  {
    std::ifstream in(dir + "/open.json");
    if (!in) {
      std::cerr << "bench_open: no " << dir << "/open.json (run tests/bench/bench_open.py --out " << dir << ")\n";
      return 2;
    }
    in >> info;
  }
  const std::string file = dir + "/open.pt2";
  try {
    size_t nodes = 0;
    serde::ReadOptions no_weights;
    no_weights.load_weights = false;
    const Timing open = median_ms(runs, [&] { nodes = serde::read_pt2(file, "", no_weights).graph().size(); });
    const Timing weights = median_ms(runs, [&] { serde::read_pt2(file); });
    const auto ep = serde::read_pt2(file, "", no_weights);
    size_t text_bytes = 0;
    const Timing print = median_ms(runs, [&] { text_bytes = ir::print_program(ep).size(); });
    const double torch_ms = info["torch_load_ms"].get<double>();
    std::cout << "program: " << info["layers"].get<int>() << " transformer blocks, " << nodes << " nodes ("
              << info["nodes"].get<int>() << " in torch), " << info["bytes"].get<int64_t>() / 1024 << " KiB\n";
    std::cout << "open (read_pt2, no weights), median of " << runs << ": " << open.wall_ms << " ms wall, "
              << open.cpu_ms << " ms CPU (target < 2000 ms)\n";
    std::cout << "open with weights: " << weights.wall_ms << " ms wall, " << weights.cpu_ms << " ms CPU\n";
    std::cout << "print(ep) text of it: " << print.wall_ms << " ms wall, " << print.cpu_ms << " ms CPU ("
              << text_bytes / 1024 << " KiB)\n";
    std::cout << "torch.export.load (torch " << info["torch_version"].get<std::string>() << "), once: " << torch_ms
              << " ms wall, " << info.value("torch_load_cpu_ms", 0.0) << " ms CPU -> " << torch_ms / open.wall_ms
              << "x (wall)\n";
    if (nodes != info["nodes"].get<size_t>()) {
      std::cerr << "bench_open: ExportLens reads " << nodes << " nodes, torch " << info["nodes"] << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_open: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

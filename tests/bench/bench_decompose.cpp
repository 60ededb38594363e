// bench_decompose: lowering to Core ATen by ExportLens against torch's
// ep.run_decompositions() on the same .pt2 files, measured in the same run.
//
//   ninja bench_decompose && build/tests/bench/bench_decompose [--repeat N] [--depth N]
//
// Programs: every oracle fixture that exports, and a stack of transformer
// blocks (>= 1,000 nodes; tests/oracle/decomp_cases.py's TransformerStack,
// exported once into the build tree). The Python side (bench_decompose.py,
// run through the venv's python) times run_decompositions() after a warm-up
// call; this side times passes::lower_to(core) (reading the file is not
// timed on either side). Prints per-program medians, the totals over the
// programs both sides lowered, and the ratio (target: >= 20x); exits 2 when
// the ratio misses the target.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"

using namespace exportlens;
namespace fs = std::filesystem;

namespace {

struct Options {
  int repeat = 5;
  int depth = 44;  // 23 nodes a block: 1,013 nodes in the training IR
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--repeat") o.repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--depth") o.depth = std::max(1, std::atoi(argv[i + 1]));
  }
  return o;
}

std::vector<std::string> fixture_programs() {
  std::vector<std::string> out;
  std::ifstream in(std::string(EXPORTLENS_FIXTURES) + "/manifest.json");
  const auto manifest = nlohmann::json::parse(in);
  for (const auto& f : manifest)
    if (f["status"] == "ok") out.push_back(std::string(EXPORTLENS_FIXTURES) + "/" + f["name"].get<std::string>() + "/program.pt2");
  return out;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

int call_nodes(const ir::ExportedProgram& ep) {
  int n = 0;
  for (const auto* node : ep.graph().nodes()) n += node->op == ir::OpKind::CallFunction;
  return n;
}

/// Median time of lowering `ep` to Core ATen; `core_nodes` receives the lowered program's size.
double median_ms(const ir::ExportedProgram& ep, const passes::DecompositionTable& table, int repeat, int* core_nodes) {
  std::vector<double> ms;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto core = passes::run_decompositions(ep, table);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    *core_nodes = call_nodes(core);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  const std::string stack = std::string(EXPORTLENS_BENCH_DIR) + "/decompose_stack_" + std::to_string(opt.depth) + ".pt2";
  const std::string times = std::string(EXPORTLENS_BENCH_DIR) + "/decompose_torch.json";
  std::vector<std::string> programs = fixture_programs();
  fs::create_directories(EXPORTLENS_BENCH_DIR);

  std::string cmd = std::string(EXPORTLENS_PYTHON) + " " + quoted(EXPORTLENS_BENCH_SCRIPT) + " --stack " + quoted(stack) +
                    " --depth " + std::to_string(opt.depth) + " --out " + quoted(times) + " --repeat " +
                    std::to_string(std::max(1, opt.repeat / 2));
  for (const auto& p : programs) cmd += " " + quoted(p);
  std::cout << "timing torch's run_decompositions() on " << programs.size() + 1 << " programs ...\n" << std::flush;
  if (const int rc = std::system(cmd.c_str()); rc != 0) {
    std::cerr << "bench_decompose: the Python side (" << EXPORTLENS_BENCH_SCRIPT << ") failed with status " << rc << "\n";
    return 1;
  }
  std::ifstream in(times);
  const auto torch_times = nlohmann::json::parse(in);
  programs.push_back(stack);

  const auto table = passes::decomposition_table("core");
  double torch_total = 0, ours_total = 0;
  int lowered = 0;
  std::cout << std::left << std::setw(34) << "program" << std::right << std::setw(8) << "nodes" << std::setw(8)
            << "core" << std::setw(14) << "torch ms" << std::setw(14) << "exportlens ms" << std::setw(10) << "ratio"
            << "\n";
  for (const auto& path : programs) {
    const std::string name = fs::path(path).parent_path().filename().string() == "bench"
                                 ? fs::path(path).stem().string()
                                 : fs::path(path).parent_path().filename().string();
    std::cout << std::left << std::setw(34) << name.substr(0, 33) << std::right;
    if (!torch_times.contains(path)) {
      std::cout << "  (no time from torch)\n";
      continue;
    }
    const auto& t = torch_times[path];
    if (t.contains("error")) {
      std::cout << "  (torch cannot lower the reloaded program: " << t["error"].get<std::string>().substr(0, 60) << ")\n";
      continue;
    }
    int nodes = 0, core_nodes = 0;
    double ours = 0;
    try {
      const auto ep = serde::read_pt2(path);
      nodes = call_nodes(ep);
      ours = median_ms(ep, table, opt.repeat, &core_nodes);
    } catch (const std::exception& e) {
      std::cout << "  (ExportLens failed: " << e.what() << ")\n";
      continue;
    }
    const double theirs = t["seconds"].get<double>() * 1000.0;
    torch_total += theirs;
    ours_total += ours;
    ++lowered;
    std::cout << std::setw(8) << nodes << std::setw(8) << core_nodes << std::setw(14) << std::fixed << std::setprecision(2) << theirs
              << std::setw(14) << std::setprecision(3) << ours << std::setw(9) << std::setprecision(0)
              << theirs / ours << "x\n";
    if (path == stack && nodes < 1000) std::cout << "  warning: the stack has fewer than 1,000 nodes; raise --depth\n";
  }
  if (lowered == 0) {
    std::cerr << "bench_decompose: no program was lowered by both sides\n";
    return 1;
  }
  std::cout << std::fixed << std::setprecision(1) << "\n" << lowered << " programs lowered by both: torch "
            << torch_total << " ms in all (" << torch_total / lowered << " ms a program), ExportLens "
            << std::setprecision(2) << ours_total << " ms in all (" << std::setprecision(3) << ours_total / lowered
            << " ms a program)\nratio: " << std::setprecision(0) << torch_total / ours_total
            << "x faster (target >= 20x)\n";
  return torch_total / ours_total >= 20 ? 0 : 2;
}

// bench_linearity: what reading, printing, checking, lowering and running a
// program cost per element of a declared size (tests/support/sized_programs.py:
// rank, a symbolic rank, inputs, outputs, arguments of one node, nodes of a
// chain), at 10^3, 10^4 and 10^5, side by side. Linear work costs about the
// same per element at every size: less at the smallest, where fixed costs
// spread over fewer elements, and somewhat more at the largest, whose tables
// outgrow the caches. Quadratic work costs 10x more per element each decade:
// a row whose cost per element grows more than 3x from the second size to
// the last is super-linear, listed at the end (exit 1).
//
//   bench_linearity [--dir DIR] [--kinds rank,inputs,...] [--phases read,run,...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/ir/printer.h"
#include "engine/ops/program_solver.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "tests/bench/bench_timing.h"

using namespace exportlens;

namespace {

constexpr double kSuperLinear = 3.0;

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// One phase on one program (its file, and the program read from it once, so
// only `read` counts the reading).
using Phase = std::function<void(const std::string& file, const ir::ExportedProgram& ep)>;

const std::vector<std::pair<std::string, Phase>>& phases() {
  static const std::vector<std::pair<std::string, Phase>> all = {
      {"read", [](const std::string& f, const ir::ExportedProgram&) { serde::read_pt2(f, "", runtime::pt2_read_options()); }},
      {"print", [](const std::string&, const ir::ExportedProgram& ep) { (void)ir::print_program(ep); }},
      {"check",
       [](const std::string&, const ir::ExportedProgram& ep) {
         const ops::PreparedProgram p(ep);
         (void)ops::solve(p, p.recorded_spec());
       }},
      {"lower", [](const std::string&, const ir::ExportedProgram& ep) { (void)passes::lower_to(ep, passes::IrLevel::Core); }},
      {"run",
       [](const std::string&, const ir::ExportedProgram& ep) {
         runtime::RunRequest r;
         r.random_inputs = true;
         (void)runtime::run_program(ep, r);
       }},
  };
  return all;
}

// The CPU milliseconds of this thread (median of `runs`), or -1 when the phase
// failed (said on stderr).
double cpu_ms(const Phase& phase, const std::string& file, const ir::ExportedProgram& ep, int runs) {
  try {
    return bench::median_ms(runs, [&] { phase(file, ep); }).cpu_ms;
  } catch (const std::exception& e) {
    std::cerr << file << ": " << e.what() << "\n";
    return -1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // One thread's CPU time is the figure: LibTorch's OpenMP workers would spin
  // on it (cat of 10^5 tensors), so the run stays on one thread.
  setenv("OMP_NUM_THREADS", "1", 0);
  std::string dir = EXPORTLENS_LINEARITY_DIR;
  std::vector<std::string> only_kinds, only_phases;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dir") dir = argv[i + 1];
    else if (a == "--kinds") only_kinds = split(argv[i + 1], ',');
    else if (a == "--phases") only_phases = split(argv[i + 1], ',');
  }
  std::ifstream index(dir + "/programs.txt");
  std::string kinds_line, sizes_line;
  if (!std::getline(index, kinds_line) || !std::getline(index, sizes_line)) {
    std::cerr << "bench_linearity: no " << dir << "/programs.txt (tests/support/sized_programs.py writes it)\n";
    return 2;
  }
  const auto kinds = only_kinds.empty() ? split(kinds_line, ' ') : only_kinds;
  std::vector<int64_t> sizes;
  for (const auto& s : split(sizes_line, ' ')) sizes.push_back(std::stoll(s));

  std::printf("bench_linearity: microseconds of CPU per element, at each size\n%-14s %-6s", "size", "phase");
  for (int64_t n : sizes) std::printf(" %10lld", static_cast<long long>(n));
  std::printf("   growth\n");
  std::vector<std::string> super_linear;
  for (const auto& kind : kinds) {
    // per_element[phase][size]: microseconds per element, -1 where the phase failed.
    std::map<std::string, std::vector<double>> per_element;
    for (int64_t n : sizes) {
      const std::string file = dir + "/" + kind + "_" + std::to_string(n) + ".pt2";
      const ir::ExportedProgram ep = serde::read_pt2(file, "", runtime::pt2_read_options());
      for (const auto& [name, phase] : phases()) {
        const double ms = cpu_ms(phase, file, ep, 3);
        per_element[name].push_back(ms < 0 ? -1 : ms * 1e3 / static_cast<double>(n));
      }
    }
    for (const auto& [name, phase] : phases()) {
      if (!only_phases.empty() && std::find(only_phases.begin(), only_phases.end(), name) == only_phases.end())
        continue;
      const auto& row = per_element[name];
      std::printf("%-14s %-6s", kind.c_str(), name.c_str());
      for (double us : row) {
        if (us < 0) std::printf(" %10s", "failed");
        else std::printf(" %10.3f", us);
      }
      const double before = row[row.size() >= 2 ? row.size() - 2 : 0];
      if (before > 0 && row.back() >= 0) {
        const double growth = row.back() / before;
        std::printf("   %.2fx\n", growth);
        if (growth > kSuperLinear) super_linear.push_back(kind + " " + name);
      } else {
        std::printf("   -\n");
      }
    }
    std::fflush(stdout);
  }
  if (super_linear.empty()) {
    std::printf("every row is linear (cost per element at the largest size within %.0fx of the one before)\n",
                kSuperLinear);
    return 0;
  }
  std::printf("super-linear:");
  for (const auto& r : super_linear) std::printf(" [%s]", r.c_str());
  std::printf("\n");
  return 1;
}

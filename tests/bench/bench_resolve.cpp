// bench_resolve: milliseconds per re-solve of a dynamic_shapes spec on a
// loaded program of >= 5,000 nodes (a transformer-block stack exported with
// Dim.AUTO, made by tests/oracle/bench_model.py), beside the time
// torch.export.export takes on the same model with the same spec.
//
//   bench_resolve [--dir DIR] [--runs N]
//
// Re-solves alternate between the spec and an edited one (another max for a
// Dim), as a user editing the spec in the GUI would cause. Not a test: it
// prints figures, and checks that the outcome equals torch's.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "engine/ops/program_solver.h"
#include "engine/serde/pt2_reader.h"

using namespace exportlens;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = EXPORTLENS_BENCH_DIR;
  int runs = 50;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dir") dir = argv[i + 1];
    else if (a == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
  }
  nlohmann::json info;
  {
    std::ifstream in(dir + "/bench.json");
    if (!in) {
      std::cerr << "bench_resolve: no " << dir << "/bench.json (run tests/oracle/bench_model.py --out " << dir << ")\n";
      return 2;
    }
    in >> info;
  }
  try {
    auto t0 = std::chrono::steady_clock::now();
    const ir::ExportedProgram ep = serde::read_pt2(dir + "/transformer.pt2");
    const double load_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const ops::PreparedProgram program(ep);
    const double prepare_ms = ms_since(t0);

    const std::string spec = info["spec"].get<std::string>();
    const std::string edited = replace_all(spec, "max=64", "max=128");
    ops::SolveOptions options;
    options.log = false;         // what the GUI asks for while the user types
    options.node_shapes = false;
    const ops::SolveResult first = ops::solve(program, spec, options);

    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
      t0 = std::chrono::steady_clock::now();
      const ops::SolveResult r = ops::solve(program, i % 2 ? edited : spec, options);
      times.push_back(ms_since(t0));
      if (r.status == ops::SolveStatus::Error) {
        std::cerr << "bench_resolve: " << r.message << "\n";
        return 1;
      }
    }
    // A spec that violates (the model dim as a Dim: the LayerNorms specialize it to 32).
    const std::string violating = replace_all(spec, "(batch, seq, None)", "(batch, seq, Dim(\"d\"))");
    std::vector<double> violation_times;
    std::string violation_fixes;
    for (int i = 0; i < std::max(1, runs / 5); ++i) {
      t0 = std::chrono::steady_clock::now();
      const ops::SolveResult r = ops::solve(program, violating, options);
      violation_times.push_back(ms_since(t0));
      violation_fixes = r.suggested_fixes_text;
    }
    std::sort(violation_times.begin(), violation_times.end());
    std::sort(times.begin(), times.end());
    const double mean = std::accumulate(times.begin(), times.end(), 0.0) / double(times.size());
    const double median = times[times.size() / 2];

    bool same = first.status == ops::SolveStatus::Ok;
    nlohmann::json torch_ranges = info["range_constraints"], mine = nlohmann::json::object();
    for (const auto& rc : first.range_constraints) mine[rc.expr] = {rc.lower, rc.upper};
    same = same && mine == torch_ranges;

    std::cout << "program:              " << dir << "/transformer.pt2 (" << info["layers"].get<int>()
              << " blocks, " << ep.graph().size() << " nodes)\n"
              << "spec:                 " << replace_all(spec, "\n", "\n                      ") << "\n"
              << "read .pt2:            " << load_ms << " ms (once)\n"
              << "prepare:              " << prepare_ms << " ms (once per program)\n"
              << "re-solve:             " << median << " ms median, " << mean << " ms mean, " << times.front()
              << " ms min over " << runs << " runs (target: < 50 ms)\n"
              << "re-solve (violation): " << violation_times[violation_times.size() / 2]
              << " ms median (spec with the model dim as Dim(\"d\"); fixes: "
              << replace_all(violation_fixes, "\n", " ") << ")\n"
              << "torch.export (spec):  " << info["torch_export_spec_ms"].get<double>() << " ms ("
              << info["torch_version"].get<std::string>() << ", CPU)\n"
              << "speed-up:             " << info["torch_export_spec_ms"].get<double>() / median << "x\n"
              << "outcome equals torch: " << (same ? "yes" : "NO") << " (" << ops::status_name(first.status) << ", "
              << mine.dump() << ")\n";
    return same ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "bench_resolve: " << e.what() << "\n";
    return 2;
  }
}

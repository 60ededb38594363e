// bench_resolve: milliseconds per re-solve of a dynamic_shapes spec on a
// loaded program of >= 5,000 nodes (a transformer-block stack exported with
// Dim.AUTO, made by tests/oracle/bench_model.py), beside the time
// torch.export.export takes on the same model with the same spec.
//
//   bench_resolve [--dir DIR] [--runs N] [--corpus DIR] [--only NAME[,NAME...]]
//
// --only keeps the real-architecture lines of those programs (the synthetic
// stack's figures are always printed).
//
// Then the real architectures: the programs of tests/oracle/bench_real_models.py
// (DIR/real.json: a 52-layer Llama of about 5,000 nodes, Swin and ResNet at
// checkpoint depth) and every program and spec of the test corpus
// (build/corpus): ExportLens' first solve (read + prepare + solve, what
// `exportlens check` does) and its re-solve (the GUI's live edit) beside
// torch.export's time for the same spec, with the outcome checked against
// torch's.
//
// Re-solves alternate between the spec and an edited one (another max for a
// Dim), as a user editing the spec in the GUI would cause. ExportLens' times
// are the solving thread's CPU time (torch's are the wall times recorded at
// export). Not a test: it prints figures, and checks that the outcome equals
// torch's.
#include <algorithm>
#include <cstdio>
#include <ctime>
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

/// The solving thread's CPU time, not wall time: the figures stay comparable
/// on a machine shared with other work (a solve is single-threaded).
struct CpuClock {
  using time_point = double;  // ms
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
  }
};

double ms_since(CpuClock::time_point t0) { return CpuClock::now() - t0; }

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

/// One program and spec of the real architectures: ExportLens against torch.export.
struct RealLine {
  std::string name, spec_name;
  size_t nodes = 0;
  double first_ms = 0;    // read + prepare + solve
  double resolve_ms = 0;  // median re-solve, alternating an edited spec and the spec
  double torch_ms = 0;
  std::string ours, torch;  // statuses
};

RealLine bench_real(const std::string& name, const std::string& path, const std::string& spec_name,
                    const std::string& spec, double torch_ms, const std::string& torch_status, int runs) {
  RealLine line{name, spec_name};
  auto t0 = CpuClock::now();
  const ir::ExportedProgram ep = serde::read_pt2(path);
  const ops::PreparedProgram program(ep);
  ops::SolveOptions options;
  options.log = false;
  options.node_shapes = false;
  const ops::SolveResult first = ops::solve(program, spec, options);
  line.first_ms = ms_since(t0);
  // The live edit: the batch Dim's max changes, and back (every spec has a batch Dim).
  std::string edited = replace_all(spec, "Dim(\"batch\", max=64)", "Dim(\"batch\", max=128)");
  if (edited == spec) edited = replace_all(spec, "Dim(\"batch\")", "Dim(\"batch\", max=4096)");
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    t0 = CpuClock::now();
    ops::solve(program, i % 2 ? spec : edited, options);
    times.push_back(ms_since(t0));
  }
  std::sort(times.begin(), times.end());
  line.resolve_ms = times[times.size() / 2];
  line.nodes = ep.graph().size();
  line.torch_ms = torch_ms;
  line.ours = std::string(ops::status_name(first.status));
  line.torch = torch_status;
  return line;
}

void print_real(const std::vector<RealLine>& lines) {
  std::cout << "\nreal architectures: ExportLens first solve (read + prepare + solve) and re-solve vs torch.export\n";
  std::printf("  %-22s %-14s %6s %11s %11s %12s %7s  %s\n", "program", "spec", "nodes", "first ms", "re-solve ms",
              "torch ms", "ratio", "outcome (ours / torch)");
  double worst_ratio = 0, worst_resolve = 0;
  int disagree = 0;
  for (const auto& l : lines) {
    const double ratio = l.torch_ms > 0 ? l.first_ms / l.torch_ms : 0;
    worst_ratio = std::max(worst_ratio, ratio);
    worst_resolve = std::max(worst_resolve, l.resolve_ms);
    if (l.ours != l.torch) ++disagree;
    std::printf("  %-22s %-14s %6zu %11.1f %11.2f %12.0f %7.3f  %s / %s\n", l.name.c_str(), l.spec_name.c_str(), l.nodes,
                l.first_ms, l.resolve_ms, l.torch_ms, ratio, l.ours.c_str(), l.torch.c_str());
  }
  std::printf("  %zu lines: worst first-solve / torch.export ratio %.3f (target: <= 2), slowest re-solve %.1f ms "
              "(target: < 50 ms), %d outcomes differ from torch's\n",
              lines.size(), worst_ratio, worst_resolve, disagree);
}

int main(int argc, char** argv) {
  std::string dir = EXPORTLENS_BENCH_DIR;
  std::string corpus = EXPORTLENS_CORPUS_DIR;
  int runs = 50;
  std::string only;  // comma-separated program names; empty: all
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dir") dir = argv[i + 1];
    else if (a == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--corpus") corpus = argv[i + 1];
    else if (a == "--only") only = "," + std::string(argv[i + 1]) + ",";
  }
  const auto wanted = [&](const std::string& name) {
    return only.empty() || only.find("," + name + ",") != std::string::npos;
  };
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
    auto t0 = CpuClock::now();
    const ir::ExportedProgram ep = serde::read_pt2(dir + "/transformer.pt2");
    const double load_ms = ms_since(t0);
    t0 = CpuClock::now();
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
      t0 = CpuClock::now();
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
      t0 = CpuClock::now();
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

    std::vector<RealLine> real;
    if (std::ifstream in(dir + "/real.json"); in) {
      nlohmann::json models;
      in >> models;
      for (const auto& [name, m] : models.items()) {
        if (!wanted(name)) continue;
        for (const auto& [spec_name, s] : m["specs"].items())
          real.push_back(bench_real(name, dir + "/" + m["program"].get<std::string>(), spec_name,
                                    s["spec"].get<std::string>(), s["torch_export_ms"].get<double>(),
                                    s["status"].get<std::string>(), std::max(4, runs / 5)));
      }
    } else {
      std::cout << "\n(no " << dir << "/real.json: run tests/oracle/bench_real_models.py --out " << dir << ")\n";
    }
    if (std::ifstream in(corpus + "/manifest.json"); in) {
      nlohmann::json manifest;
      in >> manifest;
      for (const auto& entry : manifest) {
        const std::string name = entry["name"].get<std::string>();
        if (!wanted(name)) continue;
        std::ifstream checks_in(corpus + "/" + name + "/checks.json");
        if (!checks_in) continue;
        nlohmann::json checks;
        checks_in >> checks;
        for (const auto& c : checks)
          real.push_back(bench_real(name, corpus + "/" + name + "/program.pt2", c["name"].get<std::string>(),
                                    c["spec"].get<std::string>(), c["export_seconds"].get<double>() * 1000,
                                    c["status"].get<std::string>(), std::max(4, runs / 10)));
      }
    } else {
      std::cout << "(no corpus at " << corpus << ": build the corpus_fixtures target)\n";
    }
    if (!real.empty()) print_real(real);
    return same ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "bench_resolve: " << e.what() << "\n";
    return 2;
  }
}

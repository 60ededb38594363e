// bench_diff: diffing two >= 10,000-node programs (goal: under a second),
// beside the time to open both in the same run. The programs are
// bench_diff.py's: bench_model.py's 160-block transformer stack, and the
// same with one block's activation changed and a block inserted, both
// lowered to Core ATen by ExportLens (about 10,600 nodes each).
//
//   bench_diff [A.pt2 B.pt2] [--runs N] [--ir training|core]
//
// One figure a line: opening both (read, no weights), lowering both,
// indexing both (module hierarchy, fingerprints, keys), matching, and the
// whole diff without and with the guards (both programs solved again
// under one spec), with what the diff found.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/diff/program_diff.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "tests/bench/bench_timing.h"

using namespace exportlens;
using bench::median_ms;
using bench::Timing;

namespace {

void line(const char* what, const Timing& t, const char* note = "") {
  std::printf("%-24s %9.1f ms   (cpu %.1f ms)%s\n", what, t.wall_ms, t.cpu_ms, note);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  int runs = 5;
  std::string level = "core";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--ir" && i + 1 < argc) level = argv[++i];
    else files.push_back(a);
  }
  if (files.empty()) files = {std::string(EXPORTLENS_BENCH_DIR) + "/a.pt2", std::string(EXPORTLENS_BENCH_DIR) + "/b.pt2"};
  if (files.size() != 2) {
    std::cerr << "usage: bench_diff [A.pt2 B.pt2] [--runs N] [--ir training|core]\n";
    return 2;
  }
  try {
    serde::ReadOptions read;
    read.load_weights = false;
    ir::ExportedProgram a, b;
    const Timing open = median_ms(runs, [&] {
      a = serde::read_pt2(files[0], "", read);
      b = serde::read_pt2(files[1], "", read);
    });
    Timing lower{};
    if (level == "core")
      lower = median_ms(1, [&] {
        a = passes::lower_to(a, passes::IrLevel::Core);
        b = passes::lower_to(b, passes::IrLevel::Core);
      });
    std::printf("A %s: %zu nodes\nB %s: %zu nodes (%s)\n", files[0].c_str(), a.graph().size(), files[1].c_str(),
                b.graph().size(), level.c_str());
    std::unique_ptr<matching::IndexedProgram> ia, ib;
    const Timing index = median_ms(runs, [&] {
      ia = std::make_unique<matching::IndexedProgram>(a);
      ib = std::make_unique<matching::IndexedProgram>(b);
    });
    matching::ProgramMatching m;
    const Timing match = median_ms(runs, [&] { m = matching::match_programs(*ia, *ib); });
    diff::DiffOptions no_guards;
    no_guards.guards = false;
    diff::ProgramDiff d;
    const Timing diff_only = median_ms(runs, [&] { d = diff::diff_programs(*ia, *ib, no_guards); });
    const Timing with_guards = median_ms(std::max(1, runs / 2), [&] { d = diff::diff_programs(*ia, *ib); });
    line("open both (reference)", open, "  read, no weights");
    if (level == "core") line("lower both to core", lower, "  once");
    line("index both", index, "  hierarchy, fingerprints, keys");
    line("match", match);
    line("index + diff", {index.wall_ms + diff_only.wall_ms, index.cpu_ms + diff_only.cpu_ms},
         "  the goal: < 1 s (no guards)");
    line("diff with guards", with_guards, "  both solved again under one spec");
    std::printf("found: %zu same, %zu changed, %zu added, %zu removed; %zu module lines; %zu of A's nodes matched\n",
                d.counts.same, d.counts.changed, d.counts.added, d.counts.removed, d.modules.size(),
                d.matching.matched_count());
    for (const auto& mc : d.modules) std::printf("  %s: %s\n", mc.path.c_str(), mc.text.c_str());
  } catch (const std::exception& e) {
    std::cerr << "bench_diff: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

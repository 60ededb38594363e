// bench_structure: fingerprinting the module scopes of a >= 10,000-node
// program and finding its stacks and odd instances, beside the nearest thing
// torch offers (a Python walk over ep.graph grouping each module call's op
// sequence, bench_structure.py) on the same file in the same run.
//
//   bench_structure [FILE.pt2] [--runs N]
//
// With no file: bench_model.py's transformer stack with 160 blocks (about
// 6,100 nodes), as exported and lowered to Core ATen by ExportLens (about
// 10,500 nodes). One figure a line.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "engine/structure/repeated_structure.h"
#include "tests/bench/bench_timing.h"

using namespace exportlens;
using bench::median_ms;
using bench::Timing;

namespace {

using bench::median_ms;
using bench::Timing;

void bench_level(const std::string& label, const ir::ExportedProgram& ep, int runs) {
  ir::ModuleHierarchy h;
  const Timing hierarchy = median_ms(runs, [&] { h = ir::module_hierarchy(ep.graph()); });
  matching::ScopeFingerprints f;
  const Timing fingerprint = median_ms(runs, [&] { f = matching::fingerprint_scopes(ep, h); });
  structure::RepeatedStructure s;
  const Timing analyse = median_ms(runs, [&] { s = structure::analyse_structure(ep, h); });
  size_t largest = 0;
  std::string largest_label;
  for (const auto& st : s.stacks)
    if (static_cast<size_t>(st.count() * st.period) > largest)
      largest = static_cast<size_t>(st.count() * st.period), largest_label = st.label(h);
  std::printf("%s_nodes %zu\n%s_module_calls %zu\n", label.c_str(), ep.graph().size(), label.c_str(), h.size() - 1);
  auto line = [&](const char* what, const Timing& t, const char* note) {
    std::printf("%s_%s_ms %.2f   (cpu %.2f ms%s)\n", label.c_str(), what, t.wall_ms, t.cpu_ms, note);
  };
  line("hierarchy", hierarchy, "; the module hierarchy the fingerprints build on");
  line("fingerprint", fingerprint, "");
  line("analyse", analyse, "; fingerprints, stacks, odd instances, no guards or times");
  std::printf("%s_stacks %zu   (largest: %s; %zu odd instances)\n", label.c_str(), s.stacks.size(), largest_label.c_str(),
              s.odd.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(EXPORTLENS_BENCH_DIR) + "/transformer.pt2";
  int runs = 9;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else file = a;
  }
  try {
    serde::ReadOptions read;
    read.load_weights = false;
    const ir::ExportedProgram ep = serde::read_pt2(file, "", read);
    std::printf("file %s\n", file.c_str());
    bench_level("training", ep, runs);
    const ir::ExportedProgram core = passes::lower_to(ep, passes::IrLevel::Core);
    bench_level("core", core, runs);
  } catch (const std::exception& e) {
    std::cerr << "bench_structure: " << e.what() << "\n";
    return 1;
  }
  // torch's side: the same file, a Python walk over its graph.
  const std::string cmd = std::string(EXPORTLENS_PYTHON) + " " + EXPORTLENS_BENCH_SCRIPT + " " + file;
  std::fflush(stdout);
  return std::system(cmd.c_str()) == 0 ? 0 : 1;
}

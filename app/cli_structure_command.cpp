// info --structure: the module tree with repeated structure folded, and the
// instances of each stack that differ.
#include <iostream>

#include "app/cli_command.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/runtime/program_runner.h"
#include "engine/structure/repeated_structure.h"
#include "engine/structure/structure_facts.h"
#include "engine/structure/structure_report.h"

namespace exportlens::app {

int info_structure(const ParsedArgs& a) {
  const bool timed = a.flag("--time");
  const ir::ExportedProgram ep = load_program_at_ir(a, "info", timed ? Weights::Load : Weights::Skip);
  const ir::ModuleHierarchy h = ir::module_hierarchy(ep.graph());
  std::string note;
  structure::NodeFacts facts = structure::solve_guard_facts(ep, &note);
  if (timed) {
    runtime::RunRequest run;
    run.random_inputs = true;
    run.time_nodes = true;
    run.limits = limits_option(a);
    const runtime::RunReport report = runtime::run_program(ep, run);
    std::vector<std::pair<std::string, double>> times;
    for (const auto& t : report.node_times) times.emplace_back(t.node, t.milliseconds);
    structure::add_run_times(facts, ep, times);
    std::cout << "timed: one run on random inputs (seed 0), " << report.total_ms << " ms\n";
  }
  const structure::RepeatedStructure s = structure::analyse_structure(ep, h, facts);
  std::cout << structure::format_structure(ep, h, s);
  if (!note.empty()) std::cout << note << "\n";
  return 0;
}

}  // namespace exportlens::app

#include "engine/structure/structure_facts.h"

#include <unordered_map>

#include "engine/ops/program_solver.h"

namespace exportlens::structure {
namespace {

std::unordered_map<std::string, int> node_indices(const ir::ExportedProgram& program) {
  std::unordered_map<std::string, int> out;
  for (const ir::Node* n : program.graph().nodes()) out.emplace(n->name, n->index());
  return out;
}

}  // namespace

NodeFacts guard_facts(const ir::ExportedProgram& program, const ops::SolveResult& solve) {
  NodeFacts facts;
  facts.guards.resize(program.graph().size());
  const auto index = node_indices(program);
  for (const auto& g : solve.guards) {
    const auto it = index.find(g.origin.node);
    if (it != index.end()) facts.guards[static_cast<size_t>(it->second)].push_back(g.expr);
  }
  return facts;
}

NodeFacts solve_guard_facts(const ir::ExportedProgram& program, std::string* note) {
  try {
    const ops::PreparedProgram prepared(program);
    symbolic::DynamicShapesSpec spec = prepared.recorded_spec();
    for (auto& [name, input] : spec.inputs)
      symbolic::DynamicShapesSpec::for_each_dim(input, [](symbolic::DimSpec& d) { d.kind = symbolic::DimSpec::Kind::Auto; });
    ops::SolveOptions options;
    options.log = false;
    options.node_shapes = false;
    const ops::SolveResult r = ops::solve(prepared, spec, options);
    if (r.status == ops::SolveStatus::Error && note) *note = "guards not attributed: " + r.message;
    return guard_facts(program, r);
  } catch (const std::exception& e) {
    if (note) *note = std::string("guards not attributed: ") + e.what();
    return {};
  }
}

void add_run_times(NodeFacts& facts, const ir::ExportedProgram& program,
                   const std::vector<std::pair<std::string, double>>& node_ms) {
  facts.milliseconds.assign(program.graph().size(), 0.0);
  const auto index = node_indices(program);
  for (const auto& [name, ms] : node_ms) {
    const auto it = index.find(name);
    if (it != index.end()) facts.milliseconds[static_cast<size_t>(it->second)] += ms;
  }
}

}  // namespace exportlens::structure

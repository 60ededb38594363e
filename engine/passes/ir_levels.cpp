#include "engine/passes/ir_levels.h"

#include <stdexcept>

#include "engine/passes/core_aten_ops.h"
#include "engine/passes/op_call.h"

namespace exportlens::passes {

std::string_view ir_level_name(IrLevel level) {
  switch (level) {
    case IrLevel::Training: return "training";
    case IrLevel::Functional: return "functional";
    case IrLevel::Core: return "core";
  }
  return "?";
}

std::optional<IrLevel> parse_ir_level(std::string_view name) {
  for (IrLevel l : all_ir_levels())
    if (ir_level_name(l) == name) return l;
  return std::nullopt;
}

const std::vector<IrLevel>& all_ir_levels() {
  static const std::vector<IrLevel> levels = {IrLevel::Training, IrLevel::Functional, IrLevel::Core};
  return levels;
}

ir::ExportedProgram lower_to(const ir::ExportedProgram& ep, IrLevel level, const DecompositionTable* table,
                             LoweringReport* report, const Progress& progress) {
  switch (level) {
    case IrLevel::Training: throw std::invalid_argument("lower_to: the training IR is the program itself");
    case IrLevel::Functional: return run_decompositions(ep, decomposition_table("functional"), report, progress);
    case IrLevel::Core:
      if (table) return run_decompositions(ep, *table, report, progress);
      return run_decompositions(ep, decomposition_table("core"), report, progress);
  }
  throw std::invalid_argument("lower_to: unknown level");
}

namespace {
void count(const ir::GraphModule& gm, std::map<std::string, int>& h) {
  for (const ir::Node* n : gm.graph.nodes())
    if (n->op == ir::OpKind::CallFunction) ++h[op_key(n->target)];
  for (const auto& [name, sub] : gm.submodules) count(*sub, h);
}
void count_non_core(const ir::GraphModule& gm, std::map<std::string, int>& h) {
  for (const ir::Node* n : gm.graph.nodes())
    if (n->op == ir::OpKind::CallFunction && !allowed_in_core_ir(n->target)) ++h[op_key(n->target)];
  for (const auto& [name, sub] : gm.submodules) count_non_core(*sub, h);
}
}  // namespace

std::map<std::string, int> op_histogram(const ir::ExportedProgram& ep) {
  std::map<std::string, int> h;
  count(ep.graph_module, h);
  return h;
}

std::map<std::string, int> non_core_ops(const ir::ExportedProgram& ep) {
  std::map<std::string, int> h;
  count_non_core(ep.graph_module, h);
  return h;
}

ProgramLevels::ProgramLevels(const ir::ExportedProgram& training, DecompositionTable table)
    : training_(training), table_(std::move(table)) {}

const ir::ExportedProgram& ProgramLevels::at(IrLevel level) {
  if (level == IrLevel::Training) return training_;
  if (!functional_) {
    functional_report_ = {};
    functional_ = std::make_unique<ir::ExportedProgram>(
        run_decompositions(training_, decomposition_table("functional"), &functional_report_));
  }
  if (level == IrLevel::Functional) return *functional_;
  if (!core_) {
    core_report_ = {};
    core_ = std::make_unique<ir::ExportedProgram>(run_decompositions(*functional_, table_, &core_report_));
  }
  return *core_;
}

const LoweringReport& ProgramLevels::report(IrLevel level) {
  at(level);
  if (level == IrLevel::Functional) return functional_report_;
  if (level == IrLevel::Core) return core_report_;
  return none_;
}

void ProgramLevels::set_table(DecompositionTable table) {
  table_ = std::move(table);
  core_.reset();
}

}  // namespace exportlens::passes

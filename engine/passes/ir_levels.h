#pragma once
// The three IRs of a program and the API the GUI and the CLI use:
//
//   training    the program as exported (torch.export.export): in-place ops,
//               composite ops such as linear and conv2d
//   functional  ep.run_decompositions(decomp_table={}): no mutation
//   core        ep.run_decompositions(table): the Core ATen operator set
//               (or whatever a custom table lowers to)
//
// ProgramLevels lowers lazily and chains training -> functional -> core, so
// every core node's provenance passes through the functional program.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/lowering.h"

namespace exportlens::passes {

enum class IrLevel { Training, Functional, Core };
std::string_view ir_level_name(IrLevel level);  // "training", "functional", "core"
std::optional<IrLevel> parse_ir_level(std::string_view name);
const std::vector<IrLevel>& all_ir_levels();

/// `ep` lowered to the functional or core level (core: with `table`, by
/// default the "core" table). The training level is `ep` itself: throws.
/// `progress`: as run_decompositions() takes it.
ir::ExportedProgram lower_to(const ir::ExportedProgram& ep, IrLevel level, const DecompositionTable* table = nullptr,
                             LoweringReport* report = nullptr, const Progress& progress = {});

/// "aten.addmm.default" -> count, every subgraph included.
std::map<std::string, int> op_histogram(const ir::ExportedProgram& ep);
/// Ops of `ep` outside the Core ATen set (with their counts).
std::map<std::string, int> non_core_ops(const ir::ExportedProgram& ep);

class ProgramLevels {
 public:
  /// `training` must outlive this object.
  explicit ProgramLevels(const ir::ExportedProgram& training, DecompositionTable table = default_decompositions());

  const ir::ExportedProgram& at(IrLevel level);
  /// The report of the lowering that made `level` (empty for training).
  const LoweringReport& report(IrLevel level);
  const DecompositionTable& table() const { return table_; }
  /// Another table for the core level (recomputed when next asked for).
  void set_table(DecompositionTable table);

 private:
  const ir::ExportedProgram& training_;
  DecompositionTable table_;
  std::unique_ptr<ir::ExportedProgram> functional_, core_;
  LoweringReport functional_report_, core_report_, none_;
};

}  // namespace exportlens::passes

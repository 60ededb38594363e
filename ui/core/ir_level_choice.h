#pragma once
// One entry of the IR-level switch: a level, and for the core level the
// registered decomposition table that lowers to it ("core" by default,
// "double_conv2d", any table an SDK library registered). The first entry is
// the opened file's own program, named after what the file holds: a training
// program, or one saved lowered (run_decompositions, `exportlens decompose
// --out`: the ATEN dialect).
#include <QList>
#include <QMetaType>
#include <QString>

#include "engine/passes/ir_levels.h"

namespace exportlens::ui {

struct LevelChoice {
  passes::IrLevel level = passes::IrLevel::Training;
  QString table;  // Core only: the table's registered name
  /// Training only: what the opened file holds where it is no training
  /// program ("Core ATen (as saved)"); empty: "Training".
  QString saved;

  static LevelChoice training() { return {passes::IrLevel::Training, {}}; }
  static LevelChoice functional() { return {passes::IrLevel::Functional, {}}; }
  static LevelChoice core(const QString& table = QStringLiteral("core")) { return {passes::IrLevel::Core, table}; }
  /// The first entry for a file holding `program`: Training, or by its dialect
  /// the level it was saved at ("Functional (as saved)", "Core ATen (as saved)"
  /// where the Core ATen table would lower none of its ops).
  static LevelChoice opened(const ir::ExportedProgram& program);

  /// "training", "functional", "core", "core:double_conv2d": unique per choice.
  QString key() const;
  /// "Training" (or what the opened file holds), "Functional", "Core ATen", "Core (double_conv2d)".
  QString label() const;
  /// 0 training, 1 functional, 2 core: how many lowerings from the export.
  int rank() const { return static_cast<int>(level); }
  friend bool operator==(const LevelChoice& a, const LevelChoice& b) { return a.key() == b.key(); }
};

/// `first` (the opened program), Functional, Core ATen, then the core level
/// with every other registered table (the registry's order).
QList<LevelChoice> level_choices(const LevelChoice& first = LevelChoice::training());

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::LevelChoice)

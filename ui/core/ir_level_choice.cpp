#include "ui/core/ir_level_choice.h"

#include <QObject>

#include "engine/ir/exported_program.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"

namespace exportlens::ui {
namespace {
const QString kCoreTable = QStringLiteral("core");

/// Whether the Core ATen table would lower `program` further. A file saved at
/// the functional level holds ops it decomposes (linear, conv2d, ...); one
/// saved at Core ATen holds none, whatever ops torch's own Core ATen lowering
/// keeps outside the Core ATen op list (roll, in a windowed transformer).
bool core_lowers_further(const ir::ExportedProgram& program) {
  const passes::DecompositionTable core = passes::decomposition_table("core");
  for (const auto& [op, count] : passes::op_histogram(program))
    if (core.find(op)) return true;
  return false;
}
}  // namespace

LevelChoice LevelChoice::opened(const ir::ExportedProgram& program) {
  LevelChoice out = training();
  const auto& dialects = program.verifiers;
  if (dialects.empty() || dialects.front() == "TRAINING") return out;
  if (dialects.front() == "ATEN")
    out.saved =
        core_lowers_further(program) ? QObject::tr("Functional (as saved)") : QObject::tr("Core ATen (as saved)");
  else  // another verifier's dialect (EDGE, ...), named as the file names it
    out.saved = QObject::tr("%1 (as saved)").arg(QString::fromStdString(dialects.front()));
  return out;
}

QString LevelChoice::key() const {
  const QString name = QString::fromStdString(std::string(passes::ir_level_name(level)));
  if (level != passes::IrLevel::Core || table.isEmpty() || table == kCoreTable) return name;
  return name + QLatin1Char(':') + table;
}

QString LevelChoice::label() const {
  switch (level) {
    case passes::IrLevel::Training: return saved.isEmpty() ? QObject::tr("Training") : saved;
    case passes::IrLevel::Functional: return QObject::tr("Functional");
    case passes::IrLevel::Core:
      return table.isEmpty() || table == kCoreTable ? QObject::tr("Core ATen") : QObject::tr("Core (%1)").arg(table);
  }
  return {};
}

QList<LevelChoice> level_choices(const LevelChoice& first) {
  QList<LevelChoice> out{first, LevelChoice::functional(), LevelChoice::core()};
  // "functional" is the functional level itself; "core" is already listed.
  for (const std::string& name : passes::decomposition_table_names()) {
    const QString table = QString::fromStdString(name);
    if (table != kCoreTable && table != QLatin1String("functional")) out.append(LevelChoice::core(table));
  }
  return out;
}

}  // namespace exportlens::ui

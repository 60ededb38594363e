#include "ui/core/ir_level_choice.h"

#include <QObject>

#include "engine/ir/exported_program.h"
#include "engine/passes/decomposition_table.h"

namespace exportlens::ui {
namespace {
const QString kCoreTable = QStringLiteral("core");
}

LevelChoice LevelChoice::opened(const ir::ExportedProgram& program) {
  LevelChoice out = training();
  const auto& dialects = program.verifiers;
  if (dialects.empty() || dialects.front() == "TRAINING") return out;
  if (dialects.front() == "ATEN")
    out.saved = passes::non_core_ops(program).empty() ? QObject::tr("Core ATen (as saved)")
                                                       : QObject::tr("Functional (as saved)");
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

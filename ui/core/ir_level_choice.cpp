#include "ui/core/ir_level_choice.h"

#include <QObject>

#include "engine/passes/decomposition_table.h"

namespace exportlens::ui {
namespace {
const QString kCoreTable = QStringLiteral("core");
}

QString LevelChoice::key() const {
  const QString name = QString::fromStdString(std::string(passes::ir_level_name(level)));
  if (level != passes::IrLevel::Core || table.isEmpty() || table == kCoreTable) return name;
  return name + QLatin1Char(':') + table;
}

QString LevelChoice::label() const {
  switch (level) {
    case passes::IrLevel::Training: return QObject::tr("Training");
    case passes::IrLevel::Functional: return QObject::tr("Functional");
    case passes::IrLevel::Core:
      return table.isEmpty() || table == kCoreTable ? QObject::tr("Core ATen") : QObject::tr("Core (%1)").arg(table);
  }
  return {};
}

QList<LevelChoice> level_choices() {
  QList<LevelChoice> out{LevelChoice::training(), LevelChoice::functional(), LevelChoice::core()};
  // "functional" is the functional level itself; "core" is already listed.
  for (const std::string& name : passes::decomposition_table_names()) {
    const QString table = QString::fromStdString(name);
    if (table != kCoreTable && table != QLatin1String("functional")) out.append(LevelChoice::core(table));
  }
  return out;
}

}  // namespace exportlens::ui

#include "ui/levels/histogram_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace exportlens::ui {

HistogramModel::HistogramModel(QObject* parent) : NodeTableModel({{tr("Op")}, {tr("Core ATen?")}}, parent) {}

void HistogramModel::setHistograms(QList<LevelHistogram> levels, QSet<QString> nonCore) {
  resetRows([&] {
    levels_ = std::move(levels);
    non_core_ = std::move(nonCore);
    QSet<QString> ops;
    for (const LevelHistogram& level : std::as_const(levels_))
      if (level.counts)
        for (const auto& [op, n] : *level.counts) ops.insert(QString::fromStdString(op));
    ops_ = QStringList(ops.begin(), ops.end());
    ops_.sort();
    QList<Column> columns{{tr("Op")}};
    for (const LevelHistogram& level : std::as_const(levels_)) columns.append({level.level.label(), true});
    columns.append({tr("Core ATen?")});
    setColumns(std::move(columns));
  });
}

int HistogramModel::count(const QString& op, int level) const {
  if (level < 0 || level >= levels_.size() || !levels_[level].counts) return -1;
  const auto& counts = *levels_[level].counts;
  const auto it = counts.find(op.toStdString());
  return it == counts.end() ? 0 : it->second;
}

QVariant HistogramModel::text(int row, int column) const {
  const QString& op = ops_[row];
  if (column == OpColumn) return op;
  if (column == flagColumn()) return non_core_.contains(op) ? tr("non-core") : QString();
  const int n = count(op, column - 1);
  if (n < 0) return QStringLiteral("…");
  return n == 0 ? QStringLiteral("·") : QString::number(n);
}

QVariant HistogramModel::sortKey(int row, int column) const {
  // Counts sort as numbers.
  if (column > OpColumn && column < flagColumn()) return count(ops_[row], column - 1);
  return text(row, column);
}

QVariant HistogramModel::toolTip(int row, int) const {
  const QString& op = ops_[row];
  return non_core_.contains(op) ? tr("%1 is not in the Core ATen operator set").arg(op) : QVariant();
}

QVariant HistogramModel::otherRole(int row, int column, int role) const {
  if (!non_core_.contains(ops_[row])) return {};
  if (role == Qt::ForegroundRole && (column == flagColumn() || column == OpColumn)) return QBrush(QColor(0xc0, 0x50, 0x20));
  if (role == Qt::FontRole && column == flagColumn()) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  return {};
}

QVariant HistogramModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) return NodeTableModel::headerData(section, orientation, role);
  if (role == Qt::ToolTipRole && section > OpColumn && section - 1 < levels_.size()) {
    const LevelHistogram& level = levels_[section - 1];
    return level.error.isEmpty() ? tr("How many times each op is called at the %1 level").arg(level.level.label())
                                 : tr("Lowering failed: %1").arg(level.error);
  }
  return {};
}

}  // namespace exportlens::ui

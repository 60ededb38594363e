#include "ui/levels/histogram_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace exportlens::ui {

HistogramModel::HistogramModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistogramModel::setHistograms(QList<LevelHistogram> levels, QSet<QString> nonCore) {
  beginResetModel();
  levels_ = std::move(levels);
  non_core_ = std::move(nonCore);
  QSet<QString> ops;
  for (const LevelHistogram& level : std::as_const(levels_))
    if (level.counts)
      for (const auto& [op, n] : *level.counts) ops.insert(QString::fromStdString(op));
  ops_ = QStringList(ops.begin(), ops.end());
  ops_.sort();
  endResetModel();
}

int HistogramModel::count(const QString& op, int level) const {
  if (level < 0 || level >= levels_.size() || !levels_[level].counts) return -1;
  const auto& counts = *levels_[level].counts;
  const auto it = counts.find(op.toStdString());
  return it == counts.end() ? 0 : it->second;
}

int HistogramModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ops_.size(); }

int HistogramModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 2 + levels_.size(); }

QVariant HistogramModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= ops_.size()) return {};
  const QString& op = ops_[index.row()];
  const int column = index.column();
  const bool flagged = non_core_.contains(op);
  if (role == Qt::DisplayRole) {
    if (column == OpColumn) return op;
    if (column == flagColumn()) return flagged ? tr("non-core") : QString();
    const int n = count(op, column - 1);
    if (n < 0) return QStringLiteral("…");
    return n == 0 ? QStringLiteral("·") : QString::number(n);
  }
  if (role == Qt::TextAlignmentRole && column > OpColumn && column < flagColumn())
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && flagged && (column == flagColumn() || column == OpColumn))
    return QBrush(QColor(0xc0, 0x50, 0x20));
  if (role == Qt::FontRole && flagged && column == flagColumn()) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::ToolTipRole && flagged) return tr("%1 is not in the Core ATen operator set").arg(op);
  // Sorting by count: the number itself.
  if (role == Qt::UserRole && column > OpColumn && column < flagColumn()) return count(op, column - 1);
  return {};
}

QVariant HistogramModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    if (section == OpColumn) return tr("Op");
    if (section == flagColumn()) return tr("Core ATen?");
    if (section - 1 < levels_.size()) return levels_[section - 1].level.label();
  }
  if (role == Qt::ToolTipRole && section > OpColumn && section - 1 < levels_.size()) {
    const LevelHistogram& level = levels_[section - 1];
    return level.error.isEmpty() ? tr("How many times each op is called at the %1 level").arg(level.level.label())
                                 : tr("Lowering failed: %1").arg(level.error);
  }
  return {};
}

}  // namespace exportlens::ui

#include "ui/run/node_times_model.h"

#include <algorithm>

#include <QFontDatabase>

#include "engine/layout/node_label.h"

namespace exportlens::ui {

NodeTimesModel::NodeTimesModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeTimesModel::setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome) {
  beginResetModel();
  rows_.clear();
  total_ms_ = 0;
  if (outcome.report) {
    for (const auto& t : outcome.report->node_times) {
      const ir::Node* node = program ? program->graph().find(t.node) : nullptr;
      rows_.append({QString::fromStdString(t.node),
                    node ? QString::fromStdString(layout::op_short_name(*node)) : QString(), t.milliseconds});
      total_ms_ += t.milliseconds;
    }
  }
  endResetModel();
}

int NodeTimesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int NodeTimesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant NodeTimesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const Row& row = rows_[index.row()];
  const double share = total_ms_ > 0 ? 100.0 * row.ms / total_ms_ : 0.0;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Node: return row.node;
      case Op: return row.op;
      case Milliseconds: return QString::number(row.ms, 'f', 3);
      case Share: return QStringLiteral("%1 %").arg(share, 0, 'f', 1);
    }
  } else if (role == SortRole) {
    switch (index.column()) {
      case Node: return index.row();  // graph order
      case Op: return row.op;
      default: return row.ms;
    }
  } else if (role == Qt::TextAlignmentRole && index.column() >= Milliseconds) {
    return int(Qt::AlignRight | Qt::AlignVCenter);
  } else if (role == Qt::FontRole && index.column() == Node) {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  }
  return {};
}

QVariant NodeTimesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  switch (section) {
    case Node: return tr("Node");
    case Op: return tr("Op");
    case Milliseconds: return tr("ms");
    case Share: return tr("Share");
  }
  return {};
}

QString NodeTimesModel::nodeAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].node : QString(); }

QHash<QString, qreal> NodeTimesModel::heatFractions() const {
  double slowest = 0;
  for (const Row& row : rows_) slowest = std::max(slowest, row.ms);
  QHash<QString, qreal> heat;
  if (slowest <= 0) return heat;
  for (const Row& row : rows_) heat.insert(row.node, row.ms / slowest);
  return heat;
}

QString NodeTimesModel::timeText(const QString& node) const {
  for (const Row& row : rows_)
    if (row.node == node) return tr("%1 ms").arg(row.ms, 0, 'f', 3);
  return {};
}

}  // namespace exportlens::ui

#include "ui/core/node_table_model.h"

#include <QFontDatabase>

namespace exportlens::ui {

NodeTableModel::NodeTableModel(QList<Column> columns, QObject* parent, RowHeader rowHeader)
    : QAbstractTableModel(parent), columns_(std::move(columns)), row_header_(rowHeader) {}

int NodeTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows(); }

int NodeTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows() || index.column() >= columns_.size()) return {};
  const int row = index.row();
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: return text(row, column);
    case NodeNameRole: return rowNode(row);
    case SortRole: return sortKey(row, column);
    case Qt::ToolTipRole: return toolTip(row, column);
    default: break;
  }
  if (QVariant other = otherRole(row, column, role); other.isValid()) return other;
  const Column& c = columns_[column];
  if (role == Qt::TextAlignmentRole && c.numeric) return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && c.code) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return row_header_ == RowHeader::Numbers ? QVariant(section + 1) : QVariant();
  return section >= 0 && section < columns_.size() ? QVariant(columns_[section].title) : QVariant();
}

QString NodeTableModel::nodeAt(int row) const { return row >= 0 && row < rows() ? rowNode(row) : QString(); }

int NodeTableModel::rowOf(const QString& node) const {
  if (node.isEmpty()) return -1;
  for (int i = 0, n = rows(); i < n; ++i)
    if (rowNode(i) == node) return i;
  return -1;
}

}  // namespace exportlens::ui

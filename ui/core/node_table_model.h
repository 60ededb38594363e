#pragma once
// The skeleton every read-only table of the window shares: columns declared
// once (title, numeric alignment, code font), rows answered by the subclass,
// and NodeNameRole for rows that stand for a graph node — so
// link_selection() ties any of them to the selection and no view maps rows
// to nodes by hand. Subclasses say what a row shows, not how Qt asks.
#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include "ui/core/node_name_role.h"

namespace exportlens::ui {

class NodeTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  struct Column {
    QString title;
    bool numeric = false;  // right-aligned
    bool code = false;     // the fixed-width font: names, ops, guards, shapes
  };
  /// What proxies sort by: numbers for numeric cells, else the text.
  static constexpr int SortRole = Qt::UserRole + 1;

  int rowCount(const QModelIndex& parent = QModelIndex()) const final;
  int columnCount(const QModelIndex& parent = QModelIndex()) const final;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The node row `row` stands for, or empty.
  QString nodeAt(int row) const;
  /// The first row standing for `node`, or -1.
  int rowOf(const QString& node) const;

 protected:
  enum class RowHeader { None, Numbers };  // the vertical header: nothing, or 1, 2, 3...
  NodeTableModel(QList<Column> columns, QObject* parent, RowHeader rowHeader = RowHeader::None);

  virtual int rows() const = 0;
  /// The text of a cell.
  virtual QVariant text(int row, int column) const = 0;
  virtual QString rowNode(int /*row*/) const { return {}; }
  virtual QVariant toolTip(int /*row*/, int /*column*/) const { return {}; }
  virtual QVariant sortKey(int row, int column) const { return text(row, column); }
  /// Any other role (colours, fonts beyond the column's) for a valid cell.
  virtual QVariant otherRole(int /*row*/, int /*column*/, int /*role*/) const { return {}; }

  /// Columns that change with the data (one per IR level): call inside a reset.
  void setColumns(QList<Column> columns) { columns_ = std::move(columns); }
  const QList<Column>& columns() const { return columns_; }
  /// Runs `change` between beginResetModel() and endResetModel().
  template <class Change>
  void resetRows(Change&& change) {
    beginResetModel();
    change();
    endResetModel();
  }

 private:
  QList<Column> columns_;
  RowHeader row_header_;
};

}  // namespace exportlens::ui

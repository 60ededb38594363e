#pragma once
// The spec as a table: one row per forward argument, one column per
// dimension (STATIC, AUTO, DYNAMIC, a named Dim, a derived Dim, an int),
// plus the example sizes and the shape the latest solve gives the input.
// Cells the latest violations name are tinted. Edits become undoable spec
// edits (SpecDocument::setDim); the value of a cell's EditRole is a DimEdit.
#include <QAbstractTableModel>

#include "ui/core/node_name_role.h"
#include "ui/shapes/spec_edits.h"

Q_DECLARE_METATYPE(exportlens::ui::DimEdit)

namespace exportlens::ui {

class SpecSession;

class DynamicShapesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum FixedColumn { Input, Example, FirstDim };

  explicit DynamicShapesModel(SpecSession* session, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The column of the solved shape (after the dimensions).
  int solvedColumn() const { return FirstDim + maxRank(); }
  /// The graph placeholder of a row's input, or empty.
  QString nodeAt(int row) const;
  /// The cell of `input`'s dimension `dim`.
  QModelIndex dimIndex(int input, int dim) const { return index(input, FirstDim + dim); }

 private:
  int maxRank() const;
  int dimOf(const QModelIndex& index) const;  // -1 when the cell is not a dimension of its input
  bool violated(int input, int dim) const;
  QString solvedShape(int input) const;

  SpecSession* session_;
  int rank_ = 0;  // columns are fixed between resets
};

}  // namespace exportlens::ui

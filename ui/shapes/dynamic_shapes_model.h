#pragma once
// The spec as a tree table: one row per input, one column per dimension
// (STATIC, AUTO, DYNAMIC, a named Dim, a derived Dim, an int), plus the
// example sizes and the shape the latest solve gives the input. An argument
// that is a tuple, list, dict or registered dataclass is a row of its own
// with its parts below it (containers in turn), down to one row per leaf
// named by its path ("x[0]", "cfg['a']", "p.u"); a program whose arguments
// are all tensors has top-level rows only. Cells the latest violations name
// are tinted. Edits become undoable spec edits (SpecDocument::setDim), which
// the nested spec text follows; the value of a cell's EditRole is a DimEdit.
#include <QAbstractItemModel>

#include <vector>

#include "ui/core/node_name_role.h"
#include "engine/symbolic/spec_binding.h"
#include "ui/shapes/spec_edits.h"

Q_DECLARE_METATYPE(exportlens::ui::DimEdit)

namespace exportlens::ui {

class SpecSession;

class DynamicShapesModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum FixedColumn { Input, Example, FirstDim };

  explicit DynamicShapesModel(SpecSession* session, QObject* parent = nullptr);

  QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The column of the solved shape (after the dimensions).
  int solvedColumn() const { return FirstDim + maxRank(); }
  /// The graph placeholder of an input, or empty.
  QString nodeAt(int input) const;
  /// The input a row shows (-1 for a container's row).
  int inputAt(const QModelIndex& index) const;
  /// The cell of `input`'s dimension `dim`.
  QModelIndex dimIndex(int input, int dim) const;
  /// The row of `input` (column `column`).
  QModelIndex inputIndex(int input, int column = Input) const;

 private:
  /// One row: an input (a leaf) or a container of inputs.
  struct Row {
    int parent = -1;            // index into rows_, -1 at the top
    int position = 0;           // among its parent's children
    int input = -1;             // the input a leaf row shows
    QString label, example;     // the Input and Example columns of a container's row
    std::vector<int> children;  // indices into rows_
  };
  void rebuild();
  int addRows(const symbolic::InputTree& tree, int parent, const QString& label);
  const Row* rowOf(const QModelIndex& index) const;
  const std::vector<int>& childrenOf(const QModelIndex& parent) const;
  int maxRank() const;
  int dimOf(const QModelIndex& index) const;  // -1 when the cell is not a dimension of its input
  bool violated(int input, int dim) const;
  QString solvedShape(int input) const;
  void refreshAll();

  SpecSession* session_;
  int rank_ = 0;  // columns are fixed between resets
  std::vector<Row> rows_;
  std::vector<int> top_;       // the top-level rows
  std::vector<int> row_of_;    // input -> its row
};

}  // namespace exportlens::ui

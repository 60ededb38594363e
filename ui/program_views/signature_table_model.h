#pragma once
// The graph signature as a table: one row per input spec, then one per
// output spec; columns kind, name, target, persistent and shape (the file's,
// or the one a re-solve of the dynamic_shapes spec gives).
#include "ui/core/loaded_program.h"
#include "ui/core/node_solve_facts.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class ProgramModel;

class SignatureTableModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, Name, Target, Persistent, Shape, ColumnCount };

  explicit SignatureTableModel(QObject* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Shapes from a solve (empty: the file's).
  void setSolved(const NodeSolveFactsMap& facts);
  /// Shows the model's program, with the shapes of its latest solve.
  void follow(ProgramModel* model);

  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 protected:
  int rows() const override { return static_cast<int>(rows_.size()); }
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override { return rows_[row].node; }
  QVariant toolTip(int row, int column) const override;

 private:
  struct Row {
    bool input;
    QString kind, name, target, persistent;
    QString node;  // empty for constants
  };
  QString shapeOf(const Row& row) const;

  QVector<Row> rows_;
  LoadedProgramPtr program_;
  NodeSolveFactsMap solved_;
};

}  // namespace exportlens::ui

#pragma once
// Range constraints as a table: symbol, min, max — the shown program's as the
// file records them until the dynamic_shapes spec is edited, then those the
// solve of the edited spec gives.
#include <vector>

#include "engine/ops/solve_result.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class ProgramModel;

class RangeConstraintsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Symbol, Min, Max, ColumnCount };

  explicit RangeConstraintsModel(QObject* parent = nullptr);

  /// Shows the file's range constraints.
  void setProgram(const LoadedProgramPtr& program);
  /// Shows a solve's range constraints instead.
  void setSolved(const std::vector<ops::RangeInfo>& ranges);
  bool showsSolved() const { return solved_; }
  /// Follows the model: the shown program's constraints, or the edited spec's solve.
  void follow(ProgramModel* model);
  /// "Range constraints", or "Range constraints (solved)".
  QString title() const;

 signals:
  void titleChanged(const QString& title);

 protected:
  int rows() const override { return static_cast<int>(rows_.size()); }
  QVariant text(int row, int column) const override;

 private:
  struct Row {
    QString symbol, min, max;
  };
  void show(QVector<Row> rows, bool solved);

  QVector<Row> rows_;
  bool solved_ = false;
};

}  // namespace exportlens::ui

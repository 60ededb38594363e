#pragma once
// The latest solve's problems, all of them in one pass (draft_export style,
// engine/ops/problem_report.h): each violated spec item, specialization,
// guard on a data-dependent value and op without a shape rule, with torch's
// message, the guard at fault, and the node and source line behind it.
#include <vector>

#include "ui/shapes/solve_table_model.h"

namespace exportlens::ui {

class ViolationsModel : public SolveTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, SpecItem, Guard, Node, Source, Problem, ColumnCount };  // the long text last: it stretches

  explicit ViolationsModel(QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override;
  QVariant toolTip(int row, int column) const override;

 private:
  /// The rows: the solve's problems; a result without a problem list (a
  /// traced program's report) lists its violations.
  const std::vector<ops::ProblemInfo>& problems() const;
  mutable const ops::SolveResult* rows_of_ = nullptr;
  mutable std::vector<ops::ProblemInfo> rows_;
};

}  // namespace exportlens::ui

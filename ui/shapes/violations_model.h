#pragma once
// The latest solve's violations: which part of the spec is violated, torch's
// message, the guard at fault, and the node and source line behind it.
#include "ui/shapes/solve_table_model.h"

namespace exportlens::ui {

class ViolationsModel : public SolveTableModel {
  Q_OBJECT
 public:
  enum Column { SpecItem, Guard, Node, Source, Problem, ColumnCount };  // the long text last: it stretches

  explicit ViolationsModel(QObject* parent = nullptr);


 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override;
  QVariant toolTip(int row, int column) const override;
};

}  // namespace exportlens::ui

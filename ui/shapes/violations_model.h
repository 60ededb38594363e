#pragma once
// The latest solve's problems, all of them in one pass (draft_export style,
// engine/ops/problem_report.h): each violated spec item, specialization,
// guard on a data-dependent value and op without a shape rule, with torch's
// message, the guard at fault, and the node and source line behind it.
#include <QAbstractTableModel>

#include "ui/core/node_name_role.h"
#include "ui/shapes/spec_solver.h"

namespace exportlens::ui {

class ViolationsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, SpecItem, Guard, Node, Source, Problem, ColumnCount };  // the long text last: it stretches

  explicit ViolationsModel(QObject* parent = nullptr);

  void setResult(const SolveResultPtr& result);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The node behind a row's violation, or empty.
  QString nodeAt(int row) const;

 private:
  /// The rows: the solve's problems; a result without a problem list (a
  /// traced program's report) lists its violations.
  std::vector<ops::ProblemInfo> rows_;
  SolveResultPtr result_;
};

}  // namespace exportlens::ui

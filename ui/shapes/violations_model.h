#pragma once
// The latest solve's violations: which part of the spec is violated, torch's
// message, the guard at fault, and the node and source line behind it.
#include <QAbstractTableModel>

#include "ui/core/node_name_role.h"
#include "ui/shapes/spec_solver.h"

namespace exportlens::ui {

class ViolationsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { SpecItem, Guard, Node, Source, Problem, ColumnCount };  // the long text last: it stretches

  explicit ViolationsModel(QObject* parent = nullptr);

  void setResult(const SolveResultPtr& result);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The node behind a row's violation, or empty.
  QString nodeAt(int row) const;

 private:
  SolveResultPtr result_;
};

}  // namespace exportlens::ui

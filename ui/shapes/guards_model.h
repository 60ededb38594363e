#pragma once
// The latest solve's guards as a table: the guard (over input sizes, as
// torch writes it), where it came from (shape rule, recorded user-code guard,
// the spec, a runtime assert), its node, op, rule and source line.
#include <QAbstractTableModel>

#include "ui/core/node_name_role.h"
#include "ui/shapes/spec_solver.h"

namespace exportlens::ui {

class GuardsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Guard, Origin, Node, Op, Rule, Source, ColumnCount };

  explicit GuardsModel(QObject* parent = nullptr);

  void setResult(const SolveResultPtr& result);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The node a row's guard came from, or empty.
  QString nodeAt(int row) const;
  /// The first row whose guard came from `node`, or -1.
  int rowOf(const QString& node) const;

 private:
  SolveResultPtr result_;
};

/// "shape rule", "recorded guard", ...: a provenance kind for people.
QString provenance_kind_name(symbolic::Provenance::Kind kind);
/// "file.py:12 in forward" and the code line, for a Source column.
QString provenance_source(const symbolic::Provenance& origin);

}  // namespace exportlens::ui

#pragma once
// The latest solve's guards as a table: the guard (over input sizes, as
// torch writes it), where it came from (shape rule, recorded user-code guard,
// the spec, a runtime assert), its node, op, rule and source line.
#include "ui/shapes/solve_table_model.h"

namespace exportlens::ui {

class ProgramModel;

class GuardsModel : public SolveTableModel {
  Q_OBJECT
 public:
  enum Column { Guard, Origin, Node, Op, Rule, Source, ColumnCount };

  explicit GuardsModel(QObject* parent = nullptr);

  /// Shows the model's latest solve.
  void follow(ProgramModel* model);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override;
  QVariant toolTip(int row, int column) const override;
};

/// "shape rule", "recorded guard", ...: a provenance kind for people.
QString provenance_kind_name(symbolic::Provenance::Kind kind);
/// "file.py:12 in forward" and the code line, for a Source column.
QString provenance_source(const symbolic::Provenance& origin);

}  // namespace exportlens::ui

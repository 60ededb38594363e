#pragma once
// A run's per-node times: node, op, milliseconds and share of the total;
// sortable (slowest first by default through a proxy, SortRole).
#include "ui/core/loaded_program.h"
#include "ui/core/node_table_model.h"
#include "ui/core/node_run_times.h"
#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class NodeTimesModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Node, Op, Milliseconds, Share, ColumnCount };

  explicit NodeTimesModel(QObject* parent = nullptr);

  void setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome);

  /// Milliseconds per timed node.
  NodeRunTimes times() const;
  /// "1.23 ms" for a node, or empty.
  QString timeText(const QString& node) const;

 protected:
  int rows() const override { return static_cast<int>(rows_.size()); }
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override { return rows_[row].node; }
  QVariant sortKey(int row, int column) const override;

 private:
  struct Row {
    QString node, op;
    double ms = 0;
  };
  QVector<Row> rows_;
  double total_ms_ = 0;
};

}  // namespace exportlens::ui

#pragma once
// A run's per-node times: node, op, milliseconds and share of the total;
// sortable (slowest first by default through a proxy). The same numbers tint
// the canvas (heatFractions()).
#include <QAbstractTableModel>
#include <QHash>

#include "ui/core/loaded_program.h"
#include "ui/core/node_name_role.h"
#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class NodeTimesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Node, Op, Milliseconds, Share, ColumnCount };
  /// Sort key role: numbers for the time columns.
  static constexpr int SortRole = Qt::UserRole + 1;

  explicit NodeTimesModel(QObject* parent = nullptr);

  void setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  QString nodeAt(int row) const;
  /// Each timed node's time relative to the slowest (0..1].
  QHash<QString, qreal> heatFractions() const;
  /// "1.23 ms" for a node, or empty.
  QString timeText(const QString& node) const;

 private:
  struct Row {
    QString node, op;
    double ms = 0;
  };
  QVector<Row> rows_;
  double total_ms_ = 0;
};

}  // namespace exportlens::ui

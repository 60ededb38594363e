#include "ui/run/node_times_model.h"

#include "engine/layout/node_label.h"

namespace exportlens::ui {

NodeTimesModel::NodeTimesModel(QObject* parent)
    : NodeTableModel({{tr("Node"), false, true}, {tr("Op")}, {tr("ms"), true}, {tr("Share"), true}}, parent) {}

void NodeTimesModel::setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome) {
  resetRows([&] {
    rows_.clear();
    total_ms_ = 0;
    if (!outcome.report) return;
    for (const auto& t : outcome.report->node_times) {
      const ir::Node* node = program ? program->graph().find(t.node) : nullptr;
      rows_.append({QString::fromStdString(t.node),
                    node ? QString::fromStdString(layout::op_short_name(*node)) : QString(), t.milliseconds});
      total_ms_ += t.milliseconds;
    }
  });
}

QVariant NodeTimesModel::text(int row, int column) const {
  const Row& r = rows_[row];
  switch (column) {
    case Node: return r.node;
    case Op: return r.op;
    case Milliseconds: return QString::number(r.ms, 'f', 3);
    case Share: return QStringLiteral("%1 %").arg(total_ms_ > 0 ? 100.0 * r.ms / total_ms_ : 0.0, 0, 'f', 1);
  }
  return {};
}

QVariant NodeTimesModel::sortKey(int row, int column) const {
  switch (column) {
    case Node: return row;  // graph order
    case Op: return rows_[row].op;
    default: return rows_[row].ms;
  }
}

NodeRunTimes NodeTimesModel::times() const {
  NodeRunTimes times;
  for (const Row& row : rows_) times.insert(row.node, row.ms);
  return times;
}

QString NodeTimesModel::timeText(const QString& node) const {
  for (const Row& row : rows_)
    if (row.node == node) return run_time_text(row.ms);
  return {};
}

}  // namespace exportlens::ui

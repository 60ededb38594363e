#include "ui/numerics/numerics_table_model.h"

#include <QBrush>
#include <QColor>

#include <cmath>
#include <limits>

#include "ui/core/node_name_role.h"

namespace exportlens::ui {

NumericsTableModel::NumericsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NumericsTableModel::setResult(std::shared_ptr<const numerics::NumericsResult> result) {
  beginResetModel();
  result_ = std::move(result);
  endResetModel();
}

void NumericsTableModel::setMetric(const QString& metric) {
  metric_ = metric;
  if (rowCount() > 0) emit dataChanged(index(0, Introduced), index(rowCount() - 1, Total));
  emit headerDataChanged(Qt::Horizontal, Introduced, Total);
}

int NumericsTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->report.nodes.size());
}

int NumericsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString NumericsTableModel::metricText(const QString& metric, double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  if (metric == QLatin1String("snr_db")) return QStringLiteral("%1 dB").arg(value, 0, 'f', 1);
  if (metric == QLatin1String("cosine")) return QString::number(value, 'f', 6);
  return value == 0 ? QStringLiteral("0") : QString::number(value, 'g', 3);
}

QString NumericsTableModel::marks(size_t row) const {
  const auto& r = result_->report;
  const auto& n = r.nodes[row];
  QStringList out;
  if (r.first_introducing == row) out << tr("first to introduce error");
  else if (r.first_divergent == row) out << tr("first beyond tolerance");
  if (n.nonfinite_origin_b) out << tr("NaN/Inf made here in B");
  if (n.nonfinite_origin_a) out << tr("NaN/Inf made here in A");
  if (n.total.beyond_tolerance) out << tr("beyond tolerance");
  return out.join(QStringLiteral(", "));
}

QVariant NumericsTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !result_) return {};
  const size_t row = static_cast<size_t>(index.row());
  const numerics::NodeNumerics& n = result_->report.nodes[row];
  if (role == NodeNameRole) return QString::fromStdString(n.node);
  const std::string metric = metric_.toStdString();
  const double sign = numerics::larger_is_worse(metric) ? 1 : -1;
  auto metric_of = [&](const numerics::ErrorStats& s) { return s.metric(metric); };
  switch (index.column()) {
    case Node:
      if (role == Qt::DisplayRole || role == SortRole) return QString::fromStdString(n.node);
      if (role == Qt::ToolTipRole && n.b_node != n.node)
        return tr("compared with B's %1").arg(QString::fromStdString(n.b_node));
      break;
    case Op:
      if (role == Qt::DisplayRole || role == SortRole) return QString::fromStdString(n.op);
      break;
    case Value:
      if (role == Qt::DisplayRole || role == SortRole) return QString::fromStdString(n.value);
      break;
    case Introduced:
      if (!n.introduced) {
        if (role == Qt::DisplayRole) return QStringLiteral("—");
        if (role == SortRole) return -std::numeric_limits<double>::infinity();
        if (role == Qt::ToolTipRole) return tr("not computed: the node's own computation was not run on A's inputs");
        break;
      }
      if (role == Qt::DisplayRole) return metricText(metric_, metric_of(*n.introduced));
      if (role == SortRole) {
        const double v = metric_of(*n.introduced);
        return std::isnan(v) ? std::numeric_limits<double>::infinity() : sign * v;
      }
      if (role == Qt::ForegroundRole && n.introduced->beyond_tolerance) return QBrush(QColor(0xc6, 0x28, 0x28));
      break;
    case Total:
      if (role == Qt::DisplayRole) return metricText(metric_, metric_of(n.total));
      if (role == SortRole) {
        const double v = metric_of(n.total);
        return std::isnan(v) ? std::numeric_limits<double>::infinity() : sign * v;
      }
      if (role == Qt::ForegroundRole && n.total.beyond_tolerance) return QBrush(QColor(0xc6, 0x28, 0x28));
      if (role == Qt::ToolTipRole)
        return tr("tolerance: rtol %1, atol %2").arg(n.total.rtol, 0, 'g', 3).arg(n.total.atol, 0, 'g', 3);
      break;
    case Inherited:
      if (role == Qt::DisplayRole) return n.inherited_max_abs ? metricText("max_abs", *n.inherited_max_abs) : QStringLiteral("—");
      if (role == SortRole) return n.inherited_max_abs.value_or(-1);
      if (role == Qt::ToolTipRole) return tr("what the node inherits from its inputs: its total max_abs less the max_abs it introduced");
      break;
    case Marks:
      if (role == Qt::DisplayRole || role == SortRole) return marks(row);
      break;
    default: break;
  }
  return {};
}

QVariant NumericsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Node: return tr("Node");
    case Op: return tr("Op");
    case Value: return tr("Value");
    case Introduced: return tr("Introduced (%1)").arg(metric_);
    case Total: return tr("Total (%1)").arg(metric_);
    case Inherited: return tr("Inherited max_abs");
    case Marks: return tr("Marks");
    default: return {};
  }
}

}  // namespace exportlens::ui

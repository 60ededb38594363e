#pragma once
// A numerics run's nodes as a table: node, op, value, the error the node
// introduced and its total error (B against A) by the chosen metric, what it
// inherited, and its marks (first divergent, NaN/Inf origin). Sorted by the
// SortRole, "worse" is always larger (SNR and cosine are turned around), so
// a descending sort puts the worst first.
#include <QAbstractTableModel>

#include <memory>

#include "engine/numerics/numerics_run.h"

namespace exportlens::ui {

class NumericsTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Node, Op, Value, Introduced, Total, Inherited, Marks, ColumnCount };
  static constexpr int SortRole = Qt::UserRole + 1;

  explicit NumericsTableModel(QObject* parent = nullptr);

  void setResult(std::shared_ptr<const numerics::NumericsResult> result);
  void setMetric(const QString& metric);
  QString metric() const { return metric_; }
  const numerics::NumericsReport* report() const { return result_ ? &result_->report : nullptr; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  /// A metric's value as shown ("3.2e-03", "41.7 dB", "inf").
  static QString metricText(const QString& metric, double value);

 private:
  QString marks(size_t row) const;

  std::shared_ptr<const numerics::NumericsResult> result_;
  QString metric_ = QStringLiteral("max_abs");
};

}  // namespace exportlens::ui

#pragma once
// A run's user outputs: name, dtype, shape, min / max / mean and, when the
// run was compared with the CPU, how far each is from the reference:
// element-wise max |Δ|, max relative error and the allclose verdict with
// torch.testing's tolerances for the dtype.
#include <QAbstractTableModel>

#include <optional>

#include "ui/core/loaded_program.h"
#include "ui/core/node_name_role.h"
#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class RunOutputsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Output, DType, Shape, Min, Max, Mean, VsCpu, MaxRel, Close, ColumnCount };

  explicit RunOutputsModel(QObject* parent = nullptr);

  /// Shows a successful outcome's outputs (anything else clears the table).
  void setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The graph node a row's output is (empty for constants).
  QString nodeAt(int row) const;

 private:
  struct Row {
    QString name;
    runtime::ValueSummary value;
    std::optional<runtime::ValueComparison> vsCpu;
  };
  QVector<Row> rows_;
};

}  // namespace exportlens::ui

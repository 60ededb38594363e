#pragma once
// A run's user outputs: name, dtype, shape, min / max / mean and, for a GPU
// run, how far each is from the CPU reference.
#include "ui/core/loaded_program.h"
#include "ui/core/node_table_model.h"
#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class RunOutputsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Output, DType, Shape, Min, Max, Mean, VsCpu, ColumnCount };

  explicit RunOutputsModel(QObject* parent = nullptr);

  /// Shows a successful outcome's outputs (anything else clears the table).
  void setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome);

 protected:
  int rows() const override { return static_cast<int>(rows_.size()); }
  QVariant text(int row, int column) const override;
  /// The graph node a row's output is.
  QString rowNode(int row) const override { return rows_[row].name; }
  QVariant toolTip(int row, int column) const override;

 private:
  struct Row {
    QString name;
    runtime::ValueSummary value;
    QString vsCpu, vsCpuTip;
  };
  QVector<Row> rows_;
};

}  // namespace exportlens::ui

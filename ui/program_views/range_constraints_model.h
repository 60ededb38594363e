#pragma once
// Range constraints as a table: symbol, min, max — the program's as the file
// records them, or those a re-solve of an edited spec gives.
#include <QAbstractTableModel>

#include <vector>

#include "engine/ops/solve_result.h"
#include "ui/core/loaded_program.h"

namespace exportlens::ui {

class ProgramModel;

class RangeConstraintsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Symbol, Min, Max, ColumnCount };

  explicit RangeConstraintsModel(QObject* parent = nullptr);

  /// Shows the file's range constraints.
  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's program's constraints (setProgram on each change).
  void follow(ProgramModel* model);
  /// Shows a solve's range constraints instead.
  void setSolved(const std::vector<ops::RangeInfo>& ranges);
  bool showsSolved() const { return solved_; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString symbol, min, max;
  };
  QVector<Row> rows_;
  bool solved_ = false;
};

}  // namespace exportlens::ui

#pragma once
// The program's range constraints as a table: symbol, min, max.
#include <QAbstractTableModel>

#include "ui/loaded_program.h"

namespace exportlens::ui {

class RangeConstraintsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Symbol, Min, Max, ColumnCount };

  explicit RangeConstraintsModel(QObject* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString symbol, min, max;
  };
  QVector<Row> rows_;
};

}  // namespace exportlens::ui

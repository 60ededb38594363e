#pragma once
// The Op histogram dock: each op's count at the training, functional and
// core level (the core level of the table chosen in the IR switch), ops
// outside Core ATen flagged. Levels are lowered in the background when the
// dock is shown. Activating a row steps through the nodes calling that op.
#include <QWidget>

#include "ui/levels/histogram_model.h"

class QLabel;
class QTableView;

namespace exportlens::ui {

class IrLevelController;

class HistogramPanel : public QWidget {
  Q_OBJECT
 public:
  HistogramPanel(IrLevelController* controller, QWidget* parent = nullptr);

  HistogramModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  /// The levels the columns show: training, functional, and the core table last shown.
  QList<LevelChoice> levels() const;

 public slots:
  /// Lowers the levels not lowered yet (in the background), then fills the table.
  void computeAll();
  void refresh();

 signals:
  /// A row was activated (double-click, Enter): its op ("aten.addmm.default").
  void opActivated(const QString& op);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  IrLevelController* controller_;
  HistogramModel* model_;
  QTableView* table_;
  QLabel* summary_;
  LevelChoice core_ = LevelChoice::core();  // the core column's table: the one last shown
};

}  // namespace exportlens::ui

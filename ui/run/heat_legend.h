#pragma once
// The legend of the run-time heat map, drawn over the graph view's corner:
// what the tint means (node time on which clock), from no tint to the
// slowest node's time. Hidden while the heat map is off or empty.
#include <QColor>
#include <QWidget>

namespace exportlens::ui {

class ProgramModel;
class RunPanel;

class HeatLegend : public QWidget {
  Q_OBJECT
 public:
  /// Placed over `view`'s bottom-left corner; follows the model's run times
  /// and the panel's heat toggle; `cold` / `hot` are the canvas's node fill
  /// and heat colours.
  HeatLegend(QWidget* view, ProgramModel* model, RunPanel* panel, QColor cold, QColor hot);

  QString text() const { return text_; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void refresh();
  void place();

  ProgramModel* model_;
  RunPanel* panel_;
  QColor cold_, hot_;
  QString text_;
  double slowest_ms_ = 0;
};

}  // namespace exportlens::ui

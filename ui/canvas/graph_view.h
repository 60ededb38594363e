#pragma once
// The canvas's viewport: zoom with the wheel or Ctrl++ / Ctrl+-, pan by
// dragging, fit the whole graph, bring a node into view.
#include <QGraphicsView>

namespace exportlens::ui {

class GraphScene;
class ProgramModel;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);

  qreal zoom() const;
  /// Scrolls (and, when zoomed far out, zooms) so that `rect` is readable.
  void reveal(const QRectF& rect);
  /// A new program starts at its first view; a selected node is scrolled
  /// into sight. Call after `scene` follows the model (it lays out first).
  void follow(ProgramModel* model, GraphScene* scene);

 public slots:
  void zoomIn();
  void zoomOut();
  void resetZoom();
  /// Shows the whole graph, never enlarging it beyond 100 %.
  void fitAll();
  /// The first view of a new graph: all of it when that stays readable,
  /// otherwise `focus` (where the inputs are) near the top, at 100 %.
  void showStart(const QRectF& focus);

 signals:
  void zoomChanged(qreal zoom);

 protected:
  void wheelEvent(QWheelEvent* event) override;

 private:
  void zoomBy(qreal factor);
};

}  // namespace exportlens::ui

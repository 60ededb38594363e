#pragma once
// The overview in the canvas's corner: the whole picture small (boxes in
// their colours, open scopes as outlines) and the viewport as a rectangle;
// clicking or dragging in it moves the view there. Hidden while the whole
// picture fits in the view.
#include <QPixmap>
#include <QWidget>

namespace exportlens::ui {

class GraphView;

class Minimap : public QWidget {
  Q_OBJECT
 public:
  explicit Minimap(GraphView* view);

  /// Draws the picture again (call when the scene's items changed).
  void refresh();
  /// Places itself in the view's corner and shows itself when useful.
  void reposition();
  /// Where a point of the minimap lies in the scene.
  QPointF toScene(const QPointF& point) const;
  /// The viewport's rectangle, in the minimap's coordinates.
  QRectF viewportRect() const;
  void setEnabledByUser(bool on);
  bool isEnabledByUser() const { return enabled_; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  QPointF toMap(const QPointF& scene_point) const;
  void moveViewTo(const QPointF& point);

  GraphView* view_;
  QPixmap picture_;
  QRectF scene_rect_;
  qreal scale_ = 1;
  bool enabled_ = true;
};

}  // namespace exportlens::ui

#pragma once
// A collapsed module scope on the canvas: one box standing for all its ops,
// drawn as a small stack of cards (class name, path and op count, the shapes
// crossing its boundary, a "+" to open it). Selectable; double-click, "+"
// or the context menu opens it.
#include <QGraphicsItem>
#include <QString>

#include "ui/canvas/canvas_style.h"
#include "ui/core/scope_display.h"

namespace exportlens::ui {

class ScopeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 5 };

  ScopeItem(int scope, int depth, ScopeText text, const QRectF& box, const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int scope() const { return scope_; }
  const ScopeText& text() const { return text_; }
  QRectF box() const { return box_; }
  void setStyle(const CanvasStyle* style);
  /// Tints the box by its share of the run time (negative: no tint).
  void setHeat(qreal fraction, const QString& timeText = QString());
  qreal heat() const { return heat_; }

 protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

 private:
  int scope_;
  int depth_;
  ScopeText text_;
  QRectF box_;
  const CanvasStyle* style_;
  bool hovered_ = false;
  qreal heat_ = -1;
};

}  // namespace exportlens::ui

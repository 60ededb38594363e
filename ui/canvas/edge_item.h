#pragma once
// A data dependency on the canvas: the layout's Bézier curve and an arrowhead.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include "engine/layout/graph_layout.h"
#include "ui/canvas/canvas_style.h"

namespace exportlens::ui {

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };

  EdgeItem(const layout::EdgeRoute& route, const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& from() const { return from_; }
  const QString& to() const { return to_; }
  /// Drawn in the highlight colour (an edge of the selected node).
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }
  void setStyle(const CanvasStyle* style);

 private:
  QString from_, to_;
  QPainterPath curve_;
  QPolygonF arrow_;
  const CanvasStyle* style_;
  bool highlighted_ = false;
};

}  // namespace exportlens::ui

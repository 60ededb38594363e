#include "ui/canvas/edge_item.h"

#include <QLineF>
#include <QPainter>

#include <cmath>

namespace exportlens::ui {
namespace {

QPointF to_qt(layout::Point p) { return {p.x, p.y}; }

QPainterPath bezier_path(const std::vector<layout::Point>& points) {
  QPainterPath path(to_qt(points.front()));
  for (size_t i = 1; i + 2 < points.size(); i += 3)
    path.cubicTo(to_qt(points[i]), to_qt(points[i + 1]), to_qt(points[i + 2]));
  return path;
}

// A filled triangle from the curve's end (its base) to the tip on the box.
QPolygonF arrowhead(QPointF base, QPointF tip) {
  QLineF axis(tip, base);
  if (axis.length() < 1) axis.setLength(1);
  const qreal length = std::max<qreal>(axis.length(), 7.0);
  axis.setLength(length);
  QLineF normal = axis.normalVector();
  normal.setLength(length * 0.4);
  QPointF back = axis.p2();
  QPointF side = normal.p2() - normal.p1();
  return QPolygonF({tip, back + side, back - side});
}

}  // namespace

EdgeItem::EdgeItem(const layout::EdgeRoute& route, const CanvasStyle* style)
    : from_(QString::fromStdString(route.from)), to_(QString::fromStdString(route.to)), style_(style) {
  curve_ = bezier_path(route.curve);
  arrow_ = arrowhead(to_qt(route.curve.back()), to_qt(route.arrow_tip));
  setAcceptedMouseButtons(Qt::NoButton);
}

QRectF EdgeItem::boundingRect() const {
  return curve_.boundingRect().united(arrow_.boundingRect()).adjusted(-3, -3, 3, 3);
}

void EdgeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  setZValue(on ? -0.5 : -1);  // above the other edges
  update();
}

void EdgeItem::setStyle(const CanvasStyle* style) {
  style_ = style;
  update();
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  const QColor color = highlighted_ ? style_->palette.highlight() : style_->palette.edge();
  painter->setPen(QPen(color, highlighted_ ? 2.0 : 1.2, Qt::SolidLine, Qt::RoundCap));
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(curve_);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(arrow_);
}

}  // namespace exportlens::ui

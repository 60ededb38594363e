#include "ui/canvas/edge_item.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

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

constexpr qreal kLowDetail = 0.2;  // below this zoom: straight lines, no arrowheads
constexpr qreal kStubLength = 22;  // a stub: this much of the edge above its arrowhead

}  // namespace

EdgeItem::EdgeItem(const layout::EdgeRoute& route, const CanvasStyle* style)
    : from_(QString::fromStdString(route.from)), to_(QString::fromStdString(route.to)), style_(style) {
  setCurve(route.curve, route.arrow_tip);
  setAcceptedMouseButtons(Qt::NoButton);
}

EdgeItem::EdgeItem(QString from, QString to, const std::vector<layout::Point>& curve, layout::Point arrowTip,
                   int tensors, const CanvasStyle* style)
    : from_(std::move(from)), to_(std::move(to)), tensors_(tensors), style_(style) {
  setCurve(curve, arrowTip);
  setAcceptedMouseButtons(Qt::NoButton);
  if (tensors_ > 1) setAcceptHoverEvents(true);
}

void EdgeItem::setCurve(const std::vector<layout::Point>& curve, layout::Point arrowTip) {
  curve_ = bezier_path(curve);
  arrow_ = arrowhead(to_qt(curve.back()), to_qt(arrowTip));
  chord_ = QLineF(to_qt(curve.front()), to_qt(arrowTip));
}

QRectF EdgeItem::countRect() const {
  const QPointF middle = curve_.pointAtPercent(0.5);
  const QString text = QString::number(tensors_);
  const qreal width = QFontMetricsF(style_->clusterFont).horizontalAdvance(text) + 10;
  return {middle.x() - width / 2, middle.y() - 8, width, 16};
}

QRectF EdgeItem::stubRect() const {
  const QPointF tip = chord_.p2();
  return QRectF(tip.x() - 4, tip.y() - kStubLength - 4, 8, kStubLength + 4).united(arrow_.boundingRect());
}

void EdgeItem::setStub(int fanOut) {
  prepareGeometryChange();
  stub_ = true;
  setToolTip(QObject::tr("from <b>%1</b> (one of the %2 nodes it feeds; select either end to see the whole edge)")
                 .arg(from_.toHtmlEscaped())
                 .arg(fanOut));
}

QRectF EdgeItem::boundingRect() const {
  if (drawnAsStub()) return stubRect().adjusted(-2, -2, 2, 2);
  QRectF rect = curve_.boundingRect().united(arrow_.boundingRect());
  if (tensors_ > 1) rect = rect.united(countRect());
  return rect.adjusted(-3, -3, 3, 3);
}

void EdgeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  if (stub_) prepareGeometryChange();  // the whole curve, or the stub again
  highlighted_ = on;
  setZValue(on ? -0.5 : -1);  // above the other edges
  update();
}

void EdgeItem::setStyle(const CanvasStyle* style) {
  prepareGeometryChange();
  style_ = style;
  update();
}

void EdgeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = true;
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void EdgeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = false;
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const QColor color = highlighted_ || hovered_ ? style_->palette.highlight() : style_->palette.edge();
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  // A bundle is drawn a little thicker, growing with what it carries.
  const qreal width = (highlighted_ ? 2.0 : 1.2) + std::min(2.0, std::log2(double(tensors_)) * 0.6);
  if (drawnAsStub()) {
    // A short line into the target from a small ring: "fed from afar" (the tooltip names the source).
    const QPointF tip = chord_.p2();
    const QPointF top(tip.x(), tip.y() - kStubLength);
    painter->setPen(QPen(color, 0));
    painter->setBrush(Qt::NoBrush);
    painter->drawLine(top, arrow_.boundingRect().center());
    if (lod < kLowDetail) return;
    painter->drawEllipse(top, 2.5, 2.5);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(arrow_);
    return;
  }
  if (lod < kLowDetail) {
    painter->setPen(QPen(color, 0));  // cosmetic: one pixel whatever the zoom
    painter->drawLine(chord_);
    return;
  }
  // A pen of at most one device pixel is stroked by Qt's cosmetic stroker,
  // which clips each flattened segment to what is in sight; a wider one
  // outlines the whole curve first (a long edge across a 10,000-node
  // program: milliseconds each, a frame of thousands of them: seconds).
  // Plain edges stay that thin at every zoom; bundles and the selection's
  // edges, few, keep their weight.
  QPen pen(color, width, Qt::SolidLine, Qt::RoundCap);
  if (!highlighted_ && !hovered_ && tensors_ == 1) {
    pen.setWidthF(1.0);
    pen.setCosmetic(true);
  }
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(curve_);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(arrow_);
  if (tensors_ > 1 && lod >= 0.5) {
    const QRectF rect = countRect();
    painter->setBrush(style_->palette.background());
    painter->setPen(QPen(color, 1.0));
    painter->drawRoundedRect(rect, 7, 7);
    painter->setFont(style_->clusterFont);
    painter->setPen(style_->palette.clusterText());
    painter->drawText(rect, Qt::AlignCenter, QString::number(tensors_));
  }
}

}  // namespace exportlens::ui

#include "ui/canvas/scope_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace exportlens::ui {
namespace {
constexpr qreal kCardOffset = 3;  // the cards behind the box
constexpr qreal kRadius = 6;
constexpr qreal kSelectedPen = 2.5;
}  // namespace

ScopeItem::ScopeItem(int scope, int depth, ScopeText text, const QRectF& box, const CanvasStyle* style)
    : scope_(scope), depth_(depth), text_(std::move(text)), box_(box), style_(style) {
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(true);
  setToolTip(text_.tooltip);
}

QRectF ScopeItem::boundingRect() const {
  const qreal m = kSelectedPen;
  return box_.adjusted(-m, -m, m + kCardOffset, m + kCardOffset);
}

QPainterPath ScopeItem::shape() const {
  QPainterPath path;
  path.addRoundedRect(box_, kRadius, kRadius);
  return path;
}

void ScopeItem::setStyle(const CanvasStyle* style) {
  style_ = style;
  update();
}

void ScopeItem::setHeat(qreal fraction, const QString& timeText) {
  heat_ = fraction;
  setToolTip(timeText.isEmpty() ? text_.tooltip
                                : text_.tooltip + QObject::tr("<br/>run time: <b>%1</b>").arg(timeText.toHtmlEscaped()));
  update();
}

void ScopeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const CanvasPalette& palette = style_->palette;
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  QColor fill = palette.scopeFill(depth_);
  if (heat_ >= 0) fill = palette.heatFill(fill, heat_);
  if (lod < 0.15) {  // far out: the box alone
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill.darker(115));
    painter->drawRect(box_);
    return;
  }
  const bool selected = isSelected();
  const QColor border = selected ? palette.highlight() : palette.clusterBorder();
  // Two cards behind: "there is more in here".
  painter->setPen(QPen(palette.clusterBorder(), 1.0));
  painter->setBrush(fill.darker(108));
  painter->drawRoundedRect(box_.translated(kCardOffset, kCardOffset), kRadius, kRadius);
  painter->setPen(QPen(border, selected ? kSelectedPen : (hovered_ ? 1.8 : 1.2)));
  painter->setBrush(fill);
  painter->drawRoundedRect(box_, kRadius, kRadius);
  if (lod < 0.35) return;

  const NodeMetrics& m = style_->metrics;
  const QRectF inner = box_.adjusted(NodeMetrics::kPaddingX, NodeMetrics::kPaddingY + 2, -NodeMetrics::kPaddingX,
                                     -NodeMetrics::kPaddingY);
  QFontMetricsF title(m.titleFont()), detail(m.detailFont()), shapes(m.shapeFont());
  // "+" on the right of the title line.
  const QRectF plus(inner.right() - 12, inner.top(), 12, title.height());
  painter->setPen(QPen(palette.clusterText(), 1.6));
  const QPointF c = plus.center();
  painter->drawLine(QPointF(c.x() - 4, c.y()), QPointF(c.x() + 4, c.y()));
  painter->drawLine(QPointF(c.x(), c.y() - 4), QPointF(c.x(), c.y() + 4));

  QRectF line(inner.left(), inner.top(), inner.width() - NodeMetrics::kScopeExtraWidth + 8, title.height());
  painter->setFont(m.titleFont());
  painter->setPen(palette.clusterText());
  painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, title.elidedText(text_.title, Qt::ElideRight, line.width()));
  line = QRectF(inner.left(), line.bottom() + NodeMetrics::kLineGap, inner.width(), detail.height());
  painter->setFont(m.detailFont());
  painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, detail.elidedText(text_.detail, Qt::ElideMiddle, line.width()));
  if (text_.boundary.isEmpty()) return;
  line = QRectF(inner.left(), line.bottom() + NodeMetrics::kLineGap, inner.width(), shapes.height());
  painter->setFont(m.shapeFont());
  QColor subtle = palette.clusterText();
  subtle.setAlpha(190);
  painter->setPen(subtle);
  painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, shapes.elidedText(text_.boundary, Qt::ElideMiddle, line.width()));
}

void ScopeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = true;
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void ScopeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = false;
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

}  // namespace exportlens::ui

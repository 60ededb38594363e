#include "ui/canvas/node_item.h"

#include <algorithm>

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace exportlens::ui {
namespace {

constexpr qreal kSelectedPen = 2.5;
constexpr qreal kBadgeSize = 13;

QString tooltip(const ir::Node& node, NodeCategory category, const layout::NodeLabel& label) {
  QString text = QStringLiteral("<b>%1</b><br/>%2").arg(QString::fromStdString(node.name).toHtmlEscaped(),
                                                        category_name(category));
  if (node.op == ir::OpKind::CallFunction)
    text += QStringLiteral("<br/><code>%1</code>").arg(QString::fromStdString(node.target.qualified()).toHtmlEscaped());
  if (!label.subtitle.empty())
    text += QStringLiteral("<br/><code>%1</code>").arg(QString::fromStdString(label.subtitle).toHtmlEscaped());
  return text;
}

bool is_boundary(const ir::Node& node) {
  return node.op == ir::OpKind::Placeholder || node.op == ir::OpKind::Output;
}

}  // namespace

NodeItem::NodeItem(const ir::Node& node, NodeCategory category, layout::NodeLabel label, const QRectF& box,
                   const CanvasStyle* style)
    : name_(QString::fromStdString(node.name)),
      category_(category),
      label_(std::move(label)),
      box_(box),
      style_(style),
      pill_(is_boundary(node)) {
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(true);
  base_tooltip_ = tooltip(node, category, label_);
  setToolTip(base_tooltip_);
}

void NodeItem::setHeat(qreal fraction, const QString& timeText) {
  heat_ = fraction;
  time_text_ = timeText;
  refreshTooltip();
  update();
}

void NodeItem::setFoldedWeights(int count, const QString& html) {
  prepareGeometryChange();
  folded_weights_ = count;
  weights_html_ = html;
  refreshTooltip();
  update();
}

void NodeItem::refreshTooltip() {
  QString text = base_tooltip_;
  if (!time_text_.isEmpty()) text += QStringLiteral("<br/>run time: <b>%1</b>").arg(time_text_.toHtmlEscaped());
  if (folded_weights_ > 0) text += QStringLiteral("<br/>") + weights_html_;
  setToolTip(text);
}

QRectF NodeItem::badgeRect() const {
  if (folded_weights_ <= 0) return {};
  const qreal size = kBadgeSize;
  const qreal width = folded_weights_ > 9 ? size + 6 : size;
  return {box_.right() - width + 4, box_.top() - size / 2, width, size};
}

QRectF NodeItem::boundingRect() const {
  const qreal m = kSelectedPen;
  QRectF rect = box_.adjusted(-m, -m, m, m);
  return folded_weights_ > 0 ? rect.united(badgeRect().adjusted(-1, -1, 1, 1)) : rect;
}

QPainterPath NodeItem::shape() const {
  QPainterPath path;
  path.addRoundedRect(box_, cornerRadius(), cornerRadius());
  return path;
}

qreal NodeItem::cornerRadius() const {
  return pill_ ? box_.height() / 2 : 5.0;
}

void NodeItem::setStyle(const CanvasStyle* style) {
  style_ = style;
  update();
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const NodeColors colors = style_->palette.node(category_);
  const QColor fill = heat_ >= 0 ? style_->palette.heatFill(colors.fill, heat_) : colors.fill;
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  const bool selected = isSelected();
  if (lod < 0.15 && !selected) {  // far out: the colour is all that reads
    painter->fillRect(box_, fill);
    return;
  }
  QPen pen(selected ? style_->palette.highlight() : colors.border, selected ? kSelectedPen : (hovered_ ? 1.8 : 1.0));
  painter->setPen(pen);
  painter->setBrush(fill);
  painter->drawRoundedRect(box_, cornerRadius(), cornerRadius());
  if (heat_ >= 0) paintHeatBar(painter);
  // Zoomed far out text is unreadable and slow: boxes only.
  if (lod < 0.35) return;
  if (folded_weights_ > 0) paintBadge(painter);
  paintText(painter, box_.adjusted(NodeMetrics::kPaddingX / 2, NodeMetrics::kPaddingY, -NodeMetrics::kPaddingX / 2,
                                   -NodeMetrics::kPaddingY));
}

void NodeItem::paintHeatBar(QPainter* painter) const {
  // A bar along the bottom edge, as long as the node's share of the slowest time.
  const qreal inset = cornerRadius();
  const QRectF track(box_.left() + inset, box_.bottom() - 4, box_.width() - 2 * inset, 2.5);
  painter->setPen(Qt::NoPen);
  painter->setBrush(style_->palette.heat().darker(130));
  painter->drawRect(QRectF(track.topLeft(), QSizeF(track.width() * std::clamp(heat_, 0.02, 1.0), track.height())));
}

void NodeItem::paintBadge(QPainter* painter) const {
  const QRectF rect = badgeRect();
  const CanvasPalette& palette = style_->palette;
  const NodeColors weights = palette.node(NodeCategory::Parameter);
  painter->setPen(QPen(weights.border, 1.0));
  painter->setBrush(weights.fill);
  painter->drawRoundedRect(rect, rect.height() / 2, rect.height() / 2);
  QFont font = style_->clusterFont;
  font.setPointSizeF(std::max(6.0, font.pointSizeF() - 1.5));
  painter->setFont(font);
  painter->setPen(weights.text);
  painter->drawText(rect, Qt::AlignCenter, QString::number(folded_weights_));
}

void NodeItem::paintText(QPainter* painter, const QRectF& inner) const {
  const NodeColors colors = style_->palette.node(category_);
  const QFont& title_font = style_->metrics.titleFont();
  const QFont& shape_font = style_->metrics.shapeFont();
  QFontMetricsF title_metrics(title_font), shape_metrics(shape_font);
  QRectF title_rect(inner.left(), inner.top(), inner.width(), title_metrics.height());
  if (label_.subtitle.empty()) title_rect.moveTop(inner.center().y() - title_metrics.height() / 2);
  painter->setFont(title_font);
  painter->setPen(colors.text);
  painter->drawText(title_rect, Qt::AlignCenter,
                    title_metrics.elidedText(QString::fromStdString(label_.title), Qt::ElideRight, inner.width()));
  if (label_.subtitle.empty()) return;
  QRectF shape_rect(inner.left(), title_rect.bottom() + NodeMetrics::kLineGap, inner.width(), shape_metrics.height());
  painter->setFont(shape_font);
  painter->setPen(colors.subtext);
  painter->drawText(shape_rect, Qt::AlignCenter,
                    shape_metrics.elidedText(QString::fromStdString(label_.subtitle), Qt::ElideMiddle, inner.width()));
}

void NodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = true;
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void NodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event) {
  hovered_ = false;
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

}  // namespace exportlens::ui

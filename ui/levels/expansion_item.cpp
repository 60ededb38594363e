#include "ui/levels/expansion_item.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>

#include "engine/passes/core_aten_ops.h"
#include "engine/passes/op_call.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_category.h"
#include "ui/canvas/node_item.h"
#include "ui/core/node_display.h"

namespace exportlens::ui {
namespace {

constexpr qreal kPad = 12;
constexpr qreal kGap = 48;  // between the node and the callout

QRectF to_qt(const layout::Rect& r) { return {r.x, r.y, r.width, r.height}; }

qreal header_height(const CanvasStyle& style) { return QFontMetricsF(style.clusterFont).height() + 10; }

}  // namespace

ExpansionItem::ExpansionItem(std::shared_ptr<const ExpansionResult> result, const QRectF& anchor,
                             const CanvasStyle& style)
    : result_(std::move(result)), style_(style) {
  setZValue(5);  // above the graph it annotates
  const qreal header = header_height(style_);
  const QFontMetricsF metrics(style_.clusterFont);
  const layout::Rect& bounds = result_->layout.bounds;
  const qreal width = std::max(bounds.width + 2 * kPad, metrics.horizontalAdvance(headerText()) + 2 * kPad);
  full_frame_ = frame_ = QRectF(0, 0, width, header + bounds.height + 2 * kPad);
  setAnchor(anchor);
  // The body: the layout's boxes and edges, shifted under the header.
  const QPointF offset((width - bounds.width) / 2, header + kPad);
  // Its placeholders are the node's inputs, by name: weights look like weights.
  const ir::GraphSignature& signature = result_->program->program->signature;
  for (const auto& route : result_->layout.edges) {
    auto* edge = new EdgeItem(route, &style_);
    edge->setParentItem(this);
    edge->setPos(offset);
    body_.append(edge);
  }
  for (const auto& box : result_->layout.nodes) {
    const ir::Node* node = result_->expansion.graph.graph.find(box.name);
    if (!node) continue;
    auto* item = new NodeItem(*node, categorize(*node, signature), display_label(*node, signature), to_qt(box.rect()), &style_);
    item->setFlag(ItemIsSelectable, false);  // not a node of the program: the selection stays there
    item->setParentItem(this);
    item->setPos(offset);
    body_.append(item);
  }
  setToolTip(tr("%1 lowered by the \"%2\" table; click the header to collapse").arg(result_->node, result_->table));
}

void ExpansionItem::setAnchor(const QRectF& anchor) {
  prepareGeometryChange();
  setPos(anchor.right() + kGap, anchor.center().y() - header_height(style_) / 2);
  anchor_ = mapFromScene(QPointF(anchor.right(), anchor.center().y()));
}

QStringList ExpansionItem::ops() const {
  QStringList out;
  for (const ir::Node* node : result_->expansion.graph.graph.nodes())
    if (node->op == ir::OpKind::CallFunction) out.append(QString::fromStdString(passes::op_key(node->target)));
  return out;
}

QStringList ExpansionItem::nonCoreOps() const {
  QStringList out;
  for (const ir::Node* node : result_->expansion.graph.graph.nodes())
    if (node->op == ir::OpKind::CallFunction && !passes::allowed_in_core_ir(node->target))
      out.append(QString::fromStdString(passes::op_key(node->target)));
  return out;
}

QString ExpansionItem::headerText() const {
  QStringList names;
  for (const ir::Node* node : result_->expansion.graph.graph.nodes())
    if (node->op == ir::OpKind::CallFunction) names.append(QString::fromStdString(node->target.short_name()));
  const QString arrow = collapsed_ ? QStringLiteral("▸") : QStringLiteral("▾");
  if (!result_->expansion.decomposed)
    return tr("%1 %2 stays as it is (%3)").arg(arrow, result_->node, result_->table);
  return tr("%1 %2 ⇒ %3  (%4)").arg(arrow, result_->node, names.join(QStringLiteral(", ")), result_->table);
}

QRectF ExpansionItem::headerRect() const { return {0, 0, frame_.width(), header_height(style_)}; }

void ExpansionItem::setCollapsed(bool collapsed) {
  if (collapsed == collapsed_) return;
  prepareGeometryChange();
  collapsed_ = collapsed;
  frame_ = collapsed ? headerRect() : full_frame_;
  for (QGraphicsItem* item : std::as_const(body_)) item->setVisible(!collapsed);
  update();
}

QRectF ExpansionItem::boundingRect() const {
  return frame_.united(QRectF(anchor_, QSizeF(1, 1))).adjusted(-2, -2, 2, 2);
}

void ExpansionItem::followSceneStyle() {
  // The scene replaces its style when the system palette changes; the body's items point at ours.
  const auto* graph = qobject_cast<const GraphScene*>(scene());
  if (!graph || graph->canvasStyle().palette.background() == style_.palette.background()) return;
  style_ = graph->canvasStyle();
  for (QGraphicsItem* item : std::as_const(body_)) item->update();
}

void ExpansionItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  followSceneStyle();
  const CanvasPalette& palette = style_.palette;
  painter->setRenderHint(QPainter::Antialiasing);
  // The connector from the node to the callout.
  QPen connector(palette.highlight(), 1.4, Qt::DashLine);
  painter->setPen(connector);
  const QPointF start = anchor_;
  const QPointF end(frame_.left(), headerRect().center().y());
  QPainterPath path(start);
  path.cubicTo(start + QPointF(kGap / 2, 0), end - QPointF(kGap / 2, 0), end);
  painter->drawPath(path);
  // The frame: opaque, so the graph underneath does not show through.
  QColor fill = palette.background();
  painter->setPen(QPen(palette.highlight(), 1.4));
  painter->setBrush(fill);
  painter->drawRoundedRect(frame_, 8, 8);
  QColor band = palette.highlight();
  band.setAlpha(40);
  painter->setPen(Qt::NoPen);
  painter->setBrush(band);
  painter->drawRoundedRect(headerRect(), 8, 8);
  painter->setFont(style_.clusterFont);
  painter->setPen(palette.clusterText());
  painter->drawText(headerRect().adjusted(kPad / 2, 0, -kPad / 2, 0), Qt::AlignLeft | Qt::AlignVCenter, headerText());
}

void ExpansionItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (headerRect().contains(event->pos())) {
    setCollapsed(!collapsed_);
    event->accept();
    return;
  }
  QGraphicsObject::mousePressEvent(event);
}

}  // namespace exportlens::ui

#include "ui/canvas/cluster_item.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/canvas/graph_scene.h"

namespace exportlens::ui {
namespace {
constexpr qreal kLabelInset = 8;
constexpr qreal kHideTextBelowZoom = 0.35;
constexpr qreal kToggleWidth = 14;
}  // namespace

ClusterItem::ClusterItem(int scope, const QString& path, const QString& label, int depth, const QRectF& box,
                         const CanvasStyle* style)
    : scope_(scope), path_(path), label_(label), depth_(depth), box_(box), style_(style) {
  setAcceptedMouseButtons(Qt::NoButton);  // dragging on a frame pans the view
  setToolTip(QObject::tr("%1<br/><i>double-click the title or press - to collapse</i>").arg(label_.toHtmlEscaped()));
}

QRectF ClusterItem::boundingRect() const { return box_.adjusted(-1, -1, 1, 1); }

void ClusterItem::setStyle(const CanvasStyle* style) {
  style_ = style;
  update();
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const CanvasPalette& palette = style_->palette;
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  painter->setBrush(palette.clusterFill(depth_));
  if (lod < 0.15) {  // far out: a plain fill is all that shows
    painter->setPen(Qt::NoPen);
    painter->drawRect(box_);
    return;
  }
  painter->setPen(QPen(palette.clusterBorder(), 1.0, Qt::DashLine));
  painter->drawRoundedRect(box_, 8, 8);
}

ClusterLabelItem::ClusterLabelItem(const ClusterItem& cluster, const CanvasStyle* style)
    : scope_(cluster.scope()), text_(QStringLiteral("▾ ") + cluster.label()), box_(cluster.box()), style_(style) {
  setAcceptedMouseButtons(Qt::LeftButton);
  setToolTip(QObject::tr("Click ▾ or double-click to collapse %1").arg(cluster.path().toHtmlEscaped()));
}

QRectF ClusterLabelItem::textRect() const {
  // The layout left a label's height of room above the cluster's first rank.
  QFontMetricsF metrics(style_->clusterFont);
  const qreal width = std::min(metrics.horizontalAdvance(text_) + 8, box_.width() - 2 * kLabelInset + 8);
  return {box_.left() + kLabelInset - 4, box_.top() + 4, std::max<qreal>(0, width), metrics.height()};
}

QRectF ClusterLabelItem::toggleRect() const {
  const QRectF text = textRect();
  return {text.left(), text.top(), kToggleWidth, text.height()};
}

QRectF ClusterLabelItem::boundingRect() const { return textRect(); }

void ClusterLabelItem::setStyle(const CanvasStyle* style) {
  prepareGeometryChange();
  style_ = style;
  update();
}

void ClusterLabelItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::LeftButton && toggleRect().contains(event->pos())) {
    if (auto* graph = qobject_cast<GraphScene*>(scene())) graph->setExpanded(scope_, false);
    event->accept();
    return;
  }
  event->ignore();  // a press elsewhere on the title pans the view
}

void ClusterLabelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  if (option->levelOfDetailFromTransform(painter->worldTransform()) < kHideTextBelowZoom) return;
  const QRectF rect = textRect();
  // A backing in the canvas colour keeps crossing edges from striking through the text.
  QColor backing = style_->palette.background();
  backing.setAlpha(215);
  painter->setPen(Qt::NoPen);
  painter->setBrush(backing);
  painter->drawRoundedRect(rect, 3, 3);
  QFontMetricsF metrics(style_->clusterFont);
  painter->setFont(style_->clusterFont);
  painter->setPen(style_->palette.clusterText());
  painter->drawText(rect.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                    metrics.elidedText(text_, Qt::ElideMiddle, rect.width() - 8));
}

}  // namespace exportlens::ui

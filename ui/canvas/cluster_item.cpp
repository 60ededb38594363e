#include "ui/canvas/cluster_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace exportlens::ui {
namespace {
constexpr qreal kLabelInset = 8;
constexpr qreal kHideTextBelowZoom = 0.35;
}  // namespace

ClusterItem::ClusterItem(const layout::ClusterBox& cluster, const CanvasStyle* style)
    : path_(QString::fromStdString(cluster.path)),
      label_(QString::fromStdString(cluster.label)),
      depth_(cluster.depth),
      box_(cluster.rect.x, cluster.rect.y, cluster.rect.width, cluster.rect.height),
      style_(style) {
  setAcceptedMouseButtons(Qt::NoButton);
  setToolTip(label_);
}

QRectF ClusterItem::boundingRect() const { return box_.adjusted(-1, -1, 1, 1); }

void ClusterItem::setStyle(const CanvasStyle* style) {
  style_ = style;
  update();
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  const CanvasPalette& palette = style_->palette;
  painter->setPen(QPen(palette.clusterBorder(), 1.0, Qt::DashLine));
  painter->setBrush(palette.clusterFill(depth_));
  painter->drawRoundedRect(box_, 8, 8);
}

ClusterLabelItem::ClusterLabelItem(const ClusterItem& cluster, const CanvasStyle* style)
    : text_(cluster.label()), box_(cluster.box()), style_(style) {
  setAcceptedMouseButtons(Qt::NoButton);
}

QRectF ClusterLabelItem::textRect() const {
  // The layout left a label's height of room above the cluster's first rank.
  QFontMetricsF metrics(style_->clusterFont);
  const qreal width = std::min(metrics.horizontalAdvance(text_) + 8, box_.width() - 2 * kLabelInset + 8);
  return {box_.left() + kLabelInset - 4, box_.top() + 4, std::max<qreal>(0, width), metrics.height()};
}

QRectF ClusterLabelItem::boundingRect() const { return textRect(); }

void ClusterLabelItem::setStyle(const CanvasStyle* style) {
  prepareGeometryChange();
  style_ = style;
  update();
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

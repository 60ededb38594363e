#include "ui/cluster_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace exportlens::ui {

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

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const CanvasPalette& palette = style_->palette;
  painter->setPen(QPen(palette.clusterBorder(), 1.0, Qt::DashLine));
  painter->setBrush(palette.clusterFill(depth_));
  painter->drawRoundedRect(box_, 8, 8);
  if (option->levelOfDetailFromTransform(painter->worldTransform()) < 0.35) return;
  // The layout left a label's height of room above the first rank.
  QFontMetricsF metrics(style_->clusterFont);
  QRectF text(box_.left() + 8, box_.top() + 3, box_.width() - 16, metrics.height());
  painter->setFont(style_->clusterFont);
  painter->setPen(palette.clusterText());
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    metrics.elidedText(label_, Qt::ElideMiddle, text.width()));
}

}  // namespace exportlens::ui

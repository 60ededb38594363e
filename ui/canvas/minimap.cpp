#include "ui/canvas/minimap.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

#include "ui/canvas/cluster_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"

namespace exportlens::ui {
namespace {
constexpr int kMaxWidth = 220;
constexpr int kMaxHeight = 170;
constexpr int kMargin = 10;
}  // namespace

Minimap::Minimap(GraphView* view) : QWidget(view), view_(view) {
  setObjectName(QStringLiteral("minimap"));
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click or drag to move the view"));
  hide();
}

void Minimap::setEnabledByUser(bool on) {
  enabled_ = on;
  reposition();
}

QPointF Minimap::toMap(const QPointF& p) const {
  return {(p.x() - scene_rect_.left()) * scale_ + 1, (p.y() - scene_rect_.top()) * scale_ + 1};
}

QPointF Minimap::toScene(const QPointF& p) const {
  return {(p.x() - 1) / scale_ + scene_rect_.left(), (p.y() - 1) / scale_ + scene_rect_.top()};
}

QRectF Minimap::viewportRect() const {
  const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  return QRectF(toMap(visible.topLeft()), toMap(visible.bottomRight())).intersected(QRectF(rect()));
}

void Minimap::refresh() {
  auto* scene = qobject_cast<GraphScene*>(view_->scene());
  scene_rect_ = scene ? scene->sceneRect() : QRectF();
  if (scene_rect_.isEmpty()) {
    picture_ = QPixmap();
    reposition();
    return;
  }
  scale_ = std::min((kMaxWidth - 2) / scene_rect_.width(), (kMaxHeight - 2) / scene_rect_.height());
  const QSize size(std::max(24, int(scene_rect_.width() * scale_) + 2), std::max(24, int(scene_rect_.height() * scale_) + 2));
  setFixedSize(size);
  picture_ = QPixmap(size * devicePixelRatioF());
  picture_.setDevicePixelRatio(devicePixelRatioF());
  const CanvasPalette& palette = scene->canvasStyle().palette;
  QColor background = palette.background();
  background.setAlpha(235);
  picture_.fill(background);
  QPainter painter(&picture_);
  auto map_rect = [&](const QRectF& r) { return QRectF(toMap(r.topLeft()), toMap(r.bottomRight())); };
  painter.setPen(QPen(palette.clusterBorder(), 0));
  painter.setBrush(Qt::NoBrush);
  for (const ClusterItem* frame : scene->clusterItems()) painter.drawRect(map_rect(frame->box()));
  painter.setPen(Qt::NoPen);
  for (const ScopeItem* box : scene->scopeItems()) {
    painter.setBrush(palette.scopeFill(2).darker(120));
    painter.drawRect(map_rect(box->box()));
  }
  for (const NodeItem* node : scene->nodeItems()) {
    painter.setBrush(palette.node(node->category()).border);
    const QRectF r = map_rect(node->box());
    painter.drawRect(r.adjusted(0, 0, std::max(0.0, 1.0 - r.width()), std::max(0.0, 1.0 - r.height())));
  }
  painter.setPen(QPen(palette.clusterBorder(), 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1));
  reposition();
  update();
}

void Minimap::reposition() {
  const QRect area = view_->viewport()->geometry();
  move(area.right() - width() - kMargin, area.bottom() - height() - kMargin);
  // Useful only when the picture does not fit in the view.
  const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  const bool fits = scene_rect_.isEmpty() || visible.contains(scene_rect_.adjusted(20, 20, -20, -20));
  const bool room = area.width() > width() * 2 && area.height() > height() * 2;
  setVisible(enabled_ && !picture_.isNull() && !fits && room);
  raise();
  update();
}

void Minimap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.drawPixmap(0, 0, picture_);
  auto* scene = qobject_cast<GraphScene*>(view_->scene());
  const QColor highlight = scene ? scene->canvasStyle().palette.highlight() : palette().color(QPalette::Highlight);
  QColor fill = highlight;
  fill.setAlpha(40);
  painter.setPen(QPen(highlight, 1.5));
  painter.setBrush(fill);
  painter.drawRect(viewportRect().adjusted(0.75, 0.75, -0.75, -0.75));
}

void Minimap::moveViewTo(const QPointF& point) { view_->centerOn(toScene(point)); }

void Minimap::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) moveViewTo(event->position());
  event->accept();
}

void Minimap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveViewTo(event->position());
  event->accept();
}

}  // namespace exportlens::ui

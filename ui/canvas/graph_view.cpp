#include "ui/canvas/graph_view.h"

#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_model.h"

namespace exportlens::ui {
namespace {

constexpr qreal kMinZoom = 0.02;
constexpr qreal kMaxZoom = 8.0;
constexpr qreal kStep = 1.25;
constexpr qreal kReadableZoom = 0.6;

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setResizeAnchor(AnchorViewCenter);
  setViewportUpdateMode(SmartViewportUpdate);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);
}

qreal GraphView::zoom() const { return transform().m11(); }

void GraphView::zoomBy(qreal factor) {
  const qreal target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  if (std::abs(target - zoom()) < 1e-9) return;
  scale(target / zoom(), target / zoom());
  emit zoomChanged(zoom());
}

void GraphView::zoomIn() {
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(AnchorViewCenter);
  zoomBy(kStep);
  setTransformationAnchor(anchor);
}

void GraphView::zoomOut() {
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(AnchorViewCenter);
  zoomBy(1 / kStep);
  setTransformationAnchor(anchor);
}

void GraphView::resetZoom() {
  resetTransform();
  emit zoomChanged(zoom());
}

void GraphView::fitAll() {
  if (!scene()) return;
  const QRectF rect = scene()->sceneRect();
  if (rect.isEmpty()) return;
  fitInView(rect, Qt::KeepAspectRatio);
  if (zoom() > 1.0) resetTransform();
  if (zoom() < kMinZoom) zoomBy(kMinZoom / zoom());
  centerOn(rect.center());
  emit zoomChanged(zoom());
}

void GraphView::showStart(const QRectF& focus) {
  if (!scene()) return;
  const QRectF rect = scene()->sceneRect();
  const QSizeF room = viewport()->size();
  if (rect.isEmpty() || room.isEmpty()) return;
  const qreal fit = std::min(room.width() / rect.width(), room.height() / rect.height());
  if (fit >= kReadableZoom) {
    fitAll();
    return;
  }
  resetTransform();
  const QRectF target = focus.isNull() ? rect : focus;
  const qreal x = rect.width() <= room.width() ? rect.center().x() : target.center().x();
  centerOn(x, std::max(rect.top(), target.top() - 40) + room.height() / 2);
  emit zoomChanged(zoom());
}

void GraphView::reveal(const QRectF& rect) {
  if (zoom() < kReadableZoom) {
    resetTransform();
    emit zoomChanged(zoom());
  }
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  if (!visible.contains(rect)) centerOn(rect.center());
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const int delta = event->angleDelta().y();
  if (delta == 0) {
    QGraphicsView::wheelEvent(event);
    return;
  }
  zoomBy(std::pow(1.0015, delta));
  event->accept();
}

void GraphView::follow(ProgramModel* model, GraphScene* scene) {
  connect(model, &ProgramModel::programChanged, this, [this, scene] { showStart(scene->startFocus()); });
  connect(model, &ProgramModel::selectionChanged, this, [this, scene](const QString& name) {
    if (NodeItem* item = scene->nodeItem(name)) reveal(item->box());
  });
}

}  // namespace exportlens::ui

#include "ui/canvas/graph_view.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineF>
#include <QMenu>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/canvas/breadcrumb_bar.h"
#include "ui/canvas/cluster_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/minimap.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/program_model.h"

namespace exportlens::ui {
namespace {

constexpr qreal kMinZoom = 0.002;  // a fully open 10,000-node program still fits
constexpr qreal kMaxZoom = 8.0;
constexpr qreal kStep = 1.25;
constexpr qreal kReadableZoom = 0.6;
constexpr qreal kSmoothZoom = 0.25;  // below it, no antialiasing: many small items, fast frames
constexpr qreal kTextZoom = 0.35;    // below it, boxes are drawn without their text

}  // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent), minimap_(new Minimap(this)), breadcrumbs_(new BreadcrumbBar(this)) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setResizeAnchor(AnchorViewCenter);
  setViewportUpdateMode(SmartViewportUpdate);
  setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);
  // Panning is by dragging and the overview: no scroll bars coming and going as the picture changes.
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(this, &QWidget::customContextMenuRequested, this, &GraphView::showContextMenu);
  connect(breadcrumbs_, &BreadcrumbBar::scopeClicked, this, [this](int scope) {
    if (scope == 0) {
      fitAll();
    } else if (GraphScene* g = graph()) {
      g->revealScope(scope);
    }
  });

  show_weights_ = new QAction(tr("Show &Weights as Nodes"), this);
  show_weights_->setCheckable(true);
  show_weights_->setToolTip(tr("Parameters, buffers and constants as nodes beside the ops that read them, "
                               "instead of folded into them (a badge)"));
  connect(show_weights_, &QAction::toggled, this, [this](bool on) {
    if (GraphScene* g = graph()) g->setWeightsShown(on);
  });
  show_minimap_ = new QAction(tr("&Overview (Minimap)"), this);
  show_minimap_->setCheckable(true);
  show_minimap_->setChecked(true);
  connect(show_minimap_, &QAction::toggled, minimap_, &Minimap::setEnabledByUser);
}

GraphScene* GraphView::graph() const { return qobject_cast<GraphScene*>(scene()); }

qreal GraphView::zoom() const { return transform().m11(); }

void GraphView::updateRenderHints() {
  setRenderHint(QPainter::Antialiasing, zoom() >= kSmoothZoom);
  minimap_->reposition();
}

void GraphView::zoomBy(qreal factor) {
  const qreal target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  if (std::abs(target - zoom()) < 1e-9) return;
  scale(target / zoom(), target / zoom());
  updateRenderHints();
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
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::fitAll() {
  if (!scene()) return;
  const QRectF rect = scene()->sceneRect();
  if (rect.isEmpty()) return;
  // Too big to read whole (a deep stack fully open): as wide as fits but
  // readable, from the top; F again shows all of it however small.
  const QSizeF room = viewport()->size();
  const qreal whole = std::min(room.width() / rect.width(), room.height() / rect.height());
  const bool again = isStillAt(last_fit_);
  last_fit_.reset();
  if (whole < kTextZoom && !again) {
    resetTransform();
    const qreal z = std::clamp(room.width() / rect.width(), kTextZoom, 1.0);
    scale(z, z);
    centerOn(rect.center().x(), rect.top() + room.height() / (2 * z));
    updateRenderHints();
    last_fit_ = here();
    emit zoomChanged(zoom());
    return;
  }
  fitInView(rect, Qt::KeepAspectRatio);
  if (zoom() > 1.0) resetTransform();
  if (zoom() < kMinZoom) zoomBy(kMinZoom / zoom());
  centerOn(rect.center());
  updateRenderHints();
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
  } else {
    resetTransform();
    const QRectF target = focus.isNull() ? rect : focus;
    const qreal x = rect.width() <= room.width() ? rect.center().x() : target.center().x();
    centerOn(x, std::max(rect.top(), target.top() - 40) + room.height() / 2);
    updateRenderHints();
    emit zoomChanged(zoom());
  }
  start_view_ = here();
}

GraphView::Place GraphView::here() const { return {zoom(), mapToScene(viewport()->rect().center())}; }

bool GraphView::isStillAt(const std::optional<Place>& place) const {
  // Within a couple of scene units: centring rounds to whole viewport pixels.
  return place && std::abs(zoom() - place->zoom) < 1e-9 && QLineF(here().centre, place->centre).length() < 2;
}

void GraphView::reveal(const QRectF& rect) {
  if (zoom() < kReadableZoom) {
    resetTransform();
    updateRenderHints();
    emit zoomChanged(zoom());
  }
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  if (!visible.contains(rect)) {
    // Too big to see whole (an open scope's frame): its top, where its title is.
    const qreal margin = 30 / zoom();
    const bool fits = rect.width() + 2 * margin <= visible.width() && rect.height() + 2 * margin <= visible.height();
    centerOn(fits ? rect.center()
                  : QPointF(rect.width() + 2 * margin <= visible.width() ? rect.center().x()
                                                                          : rect.left() - margin + visible.width() / 2,
                            rect.top() - margin + visible.height() / 2));
  }
  minimap_->reposition();
}

void GraphView::keepAnchor(const QPointF& delta) {
  // The box the user opened or closed stays where it was on screen: the view
  // moves with it, the scene growing if needed so it can (a picture narrower
  // than the view would otherwise be centred).
  if (!has_centre_before_layout_) return;
  has_centre_before_layout_ = false;
  const QRectF visible = visible_before_layout_.translated(delta);
  scene()->setSceneRect(scene()->sceneRect().united(visible));
  centerOn(visible.center());
  minimap_->refresh();
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

// ---- browsing -------------------------------------------------------------------

void GraphView::expandSelection() {
  GraphScene* g = graph();
  if (!g || !g->hierarchy()) return;
  if (const int box = g->selectedScope(); box >= 0) return g->setExpanded(box, true);
  if (g->selectedItems().isEmpty()) g->expandToDepth(g->expansion().depth_shown(*g->hierarchy()) + 1);
}

void GraphView::collapseSelection() {
  GraphScene* g = graph();
  if (!g || !g->hierarchy()) return;
  const ir::ModuleHierarchy& h = *g->hierarchy();
  int scope = g->selectedScope();
  if (scope >= 0) {
    scope = h[scope].parent;  // a box: close the scope around it
  } else {
    for (QGraphicsItem* item : g->selectedItems())
      if (item->type() == NodeItem::Type) scope = g->scopeOf(item);
  }
  if (scope > 0) {
    g->setExpanded(scope, false);
    g->revealScope(scope);
  } else if (g->selectedItems().isEmpty()) {
    g->expandToDepth(std::max(0, g->expansion().depth_shown(h) - 1));
  }
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
    QGraphicsView::keyPressEvent(event);
    return;
  }
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      expandSelection();
      event->accept();
      return;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
      collapseSelection();
      event->accept();
      return;
    default:
      QGraphicsView::keyPressEvent(event);
  }
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
  GraphScene* g = graph();
  if (g && event->button() == Qt::LeftButton) {
    for (QGraphicsItem* item : items(event->pos())) {
      if (item->type() == ScopeItem::Type) {
        g->setExpanded(static_cast<ScopeItem*>(item)->scope(), true);
        event->accept();
        return;
      }
      if (item->type() == NodeItem::Type) break;  // a node's own double-click
      if (item->type() == ClusterLabelItem::Type || item->type() == ClusterItem::Type) {
        g->setExpanded(g->scopeOf(item), false);
        event->accept();
        return;
      }
    }
  }
  QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent* event) {
  QGraphicsView::mouseMoveEvent(event);
  if (GraphScene* g = graph(); g && event->buttons() == Qt::NoButton) {
    QGraphicsItem* item = itemAt(event->pos());
    const int scope = item && item->type() == NodeItem::Type
                          ? g->moduleOf(static_cast<NodeItem*>(item)->nodeName())
                          : (item ? g->scopeOf(item) : -1);
    breadcrumbs_->setHoveredScope(scope);
  }
}

void GraphView::leaveEvent(QEvent* event) {
  breadcrumbs_->setHoveredScope(-1);
  QGraphicsView::leaveEvent(event);
}

void GraphView::addScopeActions(QMenu* menu, int scope) {
  GraphScene* g = graph();
  const ir::ModuleHierarchy* h = g ? g->hierarchy() : nullptr;
  if (!h || scope < 0 || scope >= int(h->size())) return;
  if (scope > 0) {
    const QString path = QString::fromStdString((*h)[scope].path);
    // Drawn open (a stack's box of several calls is closed whatever the expansion says).
    const int run = g->runDrawnBy(scope);
    if (g->expansion().is_expanded(scope) && (run < 0 || g->foldedRuns()[static_cast<size_t>(run)].units.empty())) {
      menu->addAction(tr("Collapse %1").arg(path), this, [g, scope] { g->setExpanded(scope, false); });
    } else {
      menu->addAction(tr("Expand %1").arg(path), this, [g, scope] { g->setExpanded(scope, true); })
          ->setShortcut(QKeySequence(Qt::Key_Plus));
    }
    const int parent = (*h)[scope].parent;
    if (parent > 0)
      menu->addAction(tr("Collapse %1").arg(QString::fromStdString((*h)[parent].path)), this,
                      [g, parent] { g->setExpanded(parent, false); });
    if (extend_menu_) extend_menu_(menu, scope);
  }
  QMenu* depth = menu->addMenu(tr("Expand All to Depth"));
  for (int d = 0; d <= h->max_depth(); ++d) {
    const QString label = d == h->max_depth() ? tr("%1 (everything)").arg(d) : QString::number(d);
    depth->addAction(label, this, [g, d] { g->expandToDepth(d); });
  }
  menu->addAction(tr("Collapse All"), this, [g] { g->collapseAll(); });
  menu->addAction(show_weights_);
}

void GraphView::addBrowseMenu(QMenu* parent) {
  QMenu* modules = parent->addMenu(tr("&Modules"));
  connect(modules, &QMenu::aboutToShow, this, [this, modules] {
    modules->clear();
    GraphScene* g = graph();
    if (!g || !g->hierarchy()) {
      modules->addAction(tr("(no program)"))->setEnabled(false);
      modules->addAction(show_minimap_);
      return;
    }
    modules->addAction(tr("Expand Selection"), this, &GraphView::expandSelection)->setShortcut(QKeySequence(Qt::Key_Plus));
    modules->addAction(tr("Collapse Selection"), this, &GraphView::collapseSelection)->setShortcut(QKeySequence(Qt::Key_Minus));
    modules->addSeparator();
    addScopeActions(modules, 0);
    modules->addAction(show_minimap_);
  });
}

void GraphView::showContextMenu(const QPoint& pos) {
  GraphScene* g = graph();
  if (!g || !g->hierarchy()) return;
  int scope = 0;
  for (QGraphicsItem* item = itemAt(pos); item; item = item->parentItem()) {
    const int type = item->type();
    if (type == NodeItem::Type) return;  // the node's own menu (IR levels) has the scope entries
    if (type == ScopeItem::Type || type == ClusterItem::Type || type == ClusterLabelItem::Type) {
      scope = g->scopeOf(item);
      break;
    }
    if (type > QGraphicsItem::UserType + 5) return;  // someone else's item (an expansion callout)
  }
  auto* menu = new QMenu(this);
  menu->setObjectName(QStringLiteral("scopeContextMenu"));
  menu->setAttribute(Qt::WA_DeleteOnClose);
  addScopeActions(menu, scope);
  menu->popup(viewport()->mapToGlobal(pos));
}

// ---- overlays -----------------------------------------------------------------------

void GraphView::placeOverlays() {
  breadcrumbs_->move(viewport()->geometry().topLeft() + QPoint(6, 6));
  minimap_->reposition();
}

void GraphView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  placeOverlays();
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  minimap_->reposition();
}

void GraphView::watch(GraphScene* scene) {
  breadcrumbs_->setScene(scene);
  connect(scene, &GraphScene::revealRequested, this, &GraphView::reveal);
  connect(scene, &GraphScene::pictureChanged, minimap_, &Minimap::refresh);
  connect(scene, &GraphScene::layoutStarted, this, [this] {
    visible_before_layout_ = mapToScene(viewport()->rect()).boundingRect();
    has_centre_before_layout_ = true;
    at_start_before_layout_ = isStillAt(start_view_);
  });
  connect(scene, &GraphScene::anchorMoved, this, &GraphView::keepAnchor);
  connect(scene, &GraphScene::scopeSelected, breadcrumbs_, &BreadcrumbBar::setSelectedScope);
  connect(scene, &GraphScene::pictureChanged, this, [this, scene] {
    if (scene->weightsShown() != show_weights_->isChecked()) {
      const QSignalBlocker quiet(show_weights_);
      show_weights_->setChecked(scene->weightsShown());
    }
    placeOverlays();
  });
}

void GraphView::follow(ProgramModel* model, GraphScene* scene) {
  watch(scene);
  // Another level of the same program with a node selected: the selection,
  // revealed there, is where the view goes instead.
  connect(model, &ProgramModel::programChanged, this, [this, scene, model] {
    if (!model->placeKept() || !model->selectedNode()) showStart(scene->startFocus());
  });
  // The stacks fold a moment after the program opens, and the picture grows
  // deeper and wider: a view the user has not moved follows it to its inputs.
  connect(scene, &GraphScene::openingRedrawn, this, [this, scene] {
    if (at_start_before_layout_) showStart(scene->startFocus());
  });
  connect(model, &ProgramModel::selectionChanged, this, [this, scene](const QString& name) {
    breadcrumbs_->setSelectedScope(name.isEmpty() ? -1 : scene->moduleOf(name));
  });
}

}  // namespace exportlens::ui

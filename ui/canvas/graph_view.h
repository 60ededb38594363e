#pragma once
// The canvas's viewport: zoom with the wheel or Ctrl++ / Ctrl+-, pan by
// dragging, fit the whole picture, bring a node into view. Browsing the
// module hierarchy: double-click a box to open it (its title to close it),
// + / - open the selected box or close the scope around the selection (with
// nothing selected: one level deeper / shallower everywhere), the context
// menu and View › Modules (open to a depth, collapse all, weights as nodes).
// An overview in the corner (minimap) and the module path of what is under
// the cursor or selected (breadcrumbs) float over it.
#include <QGraphicsView>

#include <functional>
#include <optional>
#include <utility>

class QAction;
class QMenu;

namespace exportlens::ui {

class BreadcrumbBar;
class GraphScene;
class Minimap;
class ProgramModel;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);

  qreal zoom() const;
  /// Scrolls (and, when zoomed far out, zooms) so that `rect` is readable,
  /// centring it when it was not wholly in sight.
  void reveal(const QRectF& rect);
  /// A new program starts at its first view; a selected node is scrolled
  /// into sight. Call after `scene` follows the model (it lays out first).
  void follow(ProgramModel* model, GraphScene* scene);
  /// For the panes that have no model (Compare levels): the scene's reveals and pictures.
  void watch(GraphScene* scene);

  Minimap* minimap() const { return minimap_; }
  BreadcrumbBar* breadcrumbs() const { return breadcrumbs_; }
  QAction* showWeightsAction() const { return show_weights_; }
  QAction* minimapAction() const { return show_minimap_; }
  /// View › Modules: open to a depth, collapse all, weights as nodes, overview.
  void addBrowseMenu(QMenu* parent);
  /// A scope's entries for a context menu: open or close it, the scope around it, depths.
  void addScopeActions(QMenu* menu, int scope);
  /// More entries for a scope's context menu, added after its own (the
  /// repeated structure's: which instance of a stack is drawn, Compare with…).
  void setScopeMenuExtension(std::function<void(QMenu*, int scope)> extend) { extend_menu_ = std::move(extend); }

 public slots:
  void zoomIn();
  void zoomOut();
  void resetZoom();
  /// Shows the whole picture, never enlarging it beyond 100 %; a picture too
  /// big to read whole is shown as wide as fits (readable) from its top, and
  /// a second Fit then shows all of it.
  void fitAll();
  /// The first view of a new graph: all of it when that stays readable,
  /// otherwise `focus` (where the inputs are) near the top, at 100 %.
  void showStart(const QRectF& focus);
  /// + and -: open the selected box; close the scope around the selection;
  /// with nothing selected, one level deeper or shallower everywhere.
  void expandSelection();
  void collapseSelection();

 signals:
  void zoomChanged(qreal zoom);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  void zoomBy(qreal factor);
  GraphScene* graph() const;
  void showContextMenu(const QPoint& pos);
  void placeOverlays();
  void keepAnchor(const QPointF& delta);
  void updateRenderHints();
  /// A place the view was put (zoom and the scene point at its centre), to
  /// tell later whether the user has moved it since.
  struct Place {
    qreal zoom;
    QPointF centre;
  };
  Place here() const;
  /// Whether the view is still at `place` (not zoomed or scrolled since).
  bool isStillAt(const std::optional<Place>& place) const;

  Minimap* minimap_;
  BreadcrumbBar* breadcrumbs_;
  QAction* show_weights_;
  QAction* show_minimap_;
  QRectF visible_before_layout_;
  std::optional<Place> last_fit_;    // the last readable fit (F again shows the whole)
  std::optional<Place> start_view_;  // the first view (showStart)
  bool has_centre_before_layout_ = false;
  bool at_start_before_layout_ = false;  // untouched since showStart when the layout under way began
  std::function<void(QMenu*, int)> extend_menu_;
};

}  // namespace exportlens::ui

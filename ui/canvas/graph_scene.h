#pragma once
// The canvas's items for one laid-out program: clusters, edges, nodes. Keeps
// the scene's selection in step with the shared node selection.
#include <QGraphicsScene>
#include <QHash>
#include <QPalette>

#include <memory>

#include "ui/canvas/canvas_style.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_run_times.h"

namespace exportlens::ui {

class NodeItem;
class EdgeItem;
class ClusterItem;
class ClusterLabelItem;
class ProgramModel;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's program and selection; a node picked here selects it there.
  void follow(ProgramModel* model);
  /// Fonts and colours; call again when the system palette changes.
  void setStyle(const QPalette& palette, const QFont& font);
  const CanvasStyle& canvasStyle() const { return *style_; }

  /// Where a first look at the graph should start: its user inputs.
  QRectF startFocus() const;
  NodeItem* nodeItem(const QString& name) const { return nodes_.value(name); }
  QList<NodeItem*> nodeItems() const { return nodes_.values(); }
  const QList<EdgeItem*>& edgeItems() const { return edges_; }
  const QList<ClusterItem*>& clusterItems() const { return clusters_; }
  /// Tints nodes by run time (fraction of the slowest, with a label for the
  /// tooltip); nodes not listed lose their tint. An empty map clears it.
  void setNodeHeat(const QHash<QString, qreal>& fractions, const QHash<QString, QString>& labels = {});
  /// The heat of a run's per-node times (while the tint is shown).
  void setRunTimes(const NodeRunTimes& times);
  bool heatShown() const { return heat_shown_; }

 public slots:
  /// Whether run times tint the nodes (on by default).
  void setHeatShown(bool shown);
  /// Follows the shared selection (does not emit nodeSelected).
  void selectNode(const QString& name);

 signals:
  /// The user picked a node on the canvas (empty: clicked the background).
  void nodeSelected(const QString& name);

 private:
  void onSelectionChanged();
  void highlightEdgesOf(const QString& name);

  std::unique_ptr<CanvasStyle> style_;
  QHash<QString, NodeItem*> nodes_;
  QList<EdgeItem*> edges_;
  QList<ClusterItem*> clusters_;
  QList<ClusterLabelItem*> cluster_labels_;
  bool following_ = false;  // true while applying a selection from outside
  bool heat_shown_ = true;
  NodeRunTimes run_times_;
};

}  // namespace exportlens::ui

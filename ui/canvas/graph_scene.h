#pragma once
// The canvas's items for one program, browsed by its module hierarchy: open
// scopes are frames around their parts, collapsed ones are boxes standing
// for them, edges between boxes are bundles; weights are folded into the ops
// that read them (a badge) unless shown as nodes. Opening or closing a scope
// lays out again off the GUI thread (only the levels that changed; the rest
// comes from the program's layout cache). Keeps the scene's selection in step
// with the shared node selection, and reveals a node selected anywhere: the
// scopes around it open, then the view is asked to centre it.
#include <QGraphicsScene>
#include <QHash>
#include <QPalette>
#include <QSet>
#include <QStringList>

#include <memory>
#include <vector>

#include "engine/layout/scoped_layout.h"
#include "ui/canvas/canvas_style.h"
#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_run_times.h"
#include "ui/core/scope_display.h"

namespace exportlens::ui {

class NodeItem;
class EdgeItem;
class ClusterItem;
class ClusterLabelItem;
class ScopeItem;
class ProgramModel;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  /// Shows a program as it opens (its upper module levels, laid out already).
  void setProgram(const LoadedProgramPtr& program);
  const LoadedProgramPtr& program() const { return program_; }
  /// Shows the model's program and selection; a node picked here selects it there.
  /// Another level of the same program keeps the modules the user opened.
  void follow(ProgramModel* model);
  /// The open module scopes by (module path, call): what another level of the
  /// program opens again (its hierarchy numbers its scopes otherwise).
  std::vector<std::pair<std::string, int>> openScopes() const;
  /// Opens each listed scope the shown program has (and the scopes around
  /// it), and closes every other.
  void reopenScopes(const std::vector<std::pair<std::string, int>>& scopes);
  /// Fonts and colours; call again when the system palette changes.
  void setStyle(const QPalette& palette, const QFont& font);
  const CanvasStyle& canvasStyle() const { return *style_; }

  /// Where a first look at the graph should start: its user inputs.
  QRectF startFocus() const;
  NodeItem* nodeItem(const QString& name) const { return nodes_.value(name); }
  QList<NodeItem*> nodeItems() const { return nodes_.values(); }
  const QList<EdgeItem*>& edgeItems() const { return edges_; }
  /// The frames of the open scopes, and the boxes of the collapsed ones drawn.
  const QList<ClusterItem*>& clusterItems() const { return clusters_; }
  QList<ScopeItem*> scopeItems() const { return scope_items_.values(); }
  ScopeItem* scopeItem(int scope) const { return scope_items_.value(scope); }
  ClusterItem* clusterItem(int scope) const;
  /// Where a scope is drawn (its box or its frame); null when it is not drawn.
  QRectF scopeRect(int scope) const;
  /// How a collapsed scope (or a folded stack) sums up its nodes' heat: its
  /// share of the total (run time), or its worst node, across every instance
  /// of a folded stack (numerical error).
  enum class HeatSummary { Share, Worst };
  /// Tints nodes by a fraction in [0, 1] (of the slowest, of the worst error;
  /// with a label for the tooltip) and collapsed scopes by `summary`; nodes not
  /// listed lose their tint. An empty map clears it.
  void setNodeHeat(const QHash<QString, qreal>& fractions, const QHash<QString, QString>& labels = {},
                   HeatSummary summary = HeatSummary::Share);
  /// The heat of a run's per-node times (while the tint is shown).
  void setRunTimes(const NodeRunTimes& times);
  bool heatShown() const { return heat_shown_; }

  // Browsing by the module hierarchy.
  const ir::ModuleHierarchy* hierarchy() const { return program_ ? program_->hierarchy.get() : nullptr; }
  const layout::ScopeExpansion& expansion() const { return expansion_; }
  /// The picture on screen (null before a program is shown).
  const layout::ScopedLayout* picture() const { return picture_.get(); }
  bool isLayingOut() const { return jobs_.isBusy(); }
  bool weightsShown() const { return weights_shown_; }
  /// The scope a node is drawn in: its module scope, or the nearest drawn
  /// one around it (a module of one op is not drawn; a shown weight sits in
  /// its users' scope); -1 if unknown.
  int homeScope(const QString& node) const;
  /// The node's innermost module scope (as traced), drawn or not; -1 if unknown.
  int moduleOf(const QString& node) const;
  /// The innermost scope an item is or belongs to: a box's or frame's own
  /// scope, a node's home; -1 for anything else.
  int scopeOf(const QGraphicsItem* item) const;
  /// The selected collapsed box's scope, else -1.
  int selectedScope() const;

  // Runs of sibling scopes drawn as one (a stack of identical layers,
  // engine/layout/stack_fold.h): one instance is drawn for all, as a box that
  // says `text` ("6 × Block"), or as its frame when opened; what flows into
  // or out of the run is drawn to it. Revealing a node inside another
  // instance draws that instance instead. An instance of several calls
  // (3 × [2 × ConvBlock, Mixer]) is opened as a whole (setRunOpen): its
  // calls drawn one by one, each as itself.
  struct FoldedRun {
    std::vector<int> members;  // each instance's (first) scope: sibling scopes, program order
    ScopeText text;            // the box standing for the run (opened: "blocks.3 · 6 × Block")
    /// Instances of several calls: per instance its scopes, members[i] first; empty: one call each.
    std::vector<std::vector<int>> units;
  };
  /// Replaces the runs (each folded, showing its first member) and lays out again.
  void setFoldedRuns(std::vector<FoldedRun> runs);
  const std::vector<FoldedRun>& foldedRuns() const { return runs_; }
  /// The outermost run `scope` is part of (a member, or a call of an instance), or -1.
  int runOf(int scope) const;
  /// Every run `scope` is part of, outermost first.
  std::vector<int> runsOf(int scope) const;
  /// Which instance of `run` holds `scope` (-1: none).
  int instanceOf(int run, int scope) const;
  /// The instance drawn for a folded run (-1: not folded).
  int shownInstance(int run) const;
  /// The scope drawn for `scope` in its outermost run: the shown instance's
  /// call at its place (-1: not in a run; `scope` itself when the run is drawn whole).
  int shownMember(int scope) const;
  bool isRunFolded(int run) const { return run >= 0 && run < int(run_folded_.size()) && run_folded_[run]; }
  /// A run of several calls per instance drawn open (its shown instance's calls), not as one box.
  bool isRunOpen(int run) const { return run >= 0 && run < int(run_open_.size()) && run_open_[run]; }
  /// The run whose one box (or frame) `scope` is drawn as in the picture shown, or -1.
  int runDrawnBy(int scope) const { return run_box_of_.value(scope, -1); }
  /// The depth of the deepest scope drawn open (folded stacks taken into account).
  int shownDepth() const;

 public slots:
  /// Whether run times tint the nodes (on by default).
  void setHeatShown(bool shown);
  /// Follows the shared selection (does not emit nodeSelected); a node not
  /// drawn is revealed first (the scopes around it open).
  void selectNode(const QString& name);
  void setExpanded(int scope, bool open);
  void toggleExpanded(int scope);
  /// Every scope down to `depth` open, every deeper one collapsed (0: the top-level modules are boxes).
  void expandToDepth(int depth);
  void collapseAll();
  /// Weights as nodes beside the ops that read them, or folded into them.
  void setWeightsShown(bool shown);
  /// Makes `names` drawn (opening the scopes around them), selects them and
  /// asks the view to bring them into sight (revealRequested).
  void revealNodes(const QStringList& names);
  /// Makes a scope drawn (opening the scopes around it) and asks the view to bring it into sight.
  void revealScope(int scope);
  /// Draws `scope` for its run (opened as far as the member drawn before was).
  void showMember(int scope);
  /// Draws instance `instance` of `run` for it.
  void showInstance(int run, int instance);
  /// A run drawn as one (its shown member), or every member as a box of its own.
  void setRunFolded(int run, bool folded);
  /// A run of several calls per instance: its shown instance's calls drawn, or one box.
  void setRunOpen(int run, bool open);

 signals:
  /// The user picked a node on the canvas (empty: clicked the background or a box).
  void nodeSelected(const QString& name);
  /// The user picked a collapsed scope's box.
  void scopeSelected(int scope);
  /// Which scopes are open changed; a new picture follows.
  void expansionChanged();
  /// New items are drawn (a program shown, or laid out again).
  void pictureChanged();
  /// The scope the user opened or closed moved by `delta` in the new picture:
  /// a view scrolls by it so the box stays where the eye was.
  void anchorMoved(const QPointF& delta);
  /// The first picture was laid out again while the program is still as it
  /// opened (its stacks folded into one box each): a view still on its first
  /// view shows the new picture's start instead.
  void openingRedrawn();
  /// Something selected or revealed that the view should bring into sight.
  void revealRequested(const QRectF& rect);
  /// Laying out a new expansion started / finished (ms on the worker).
  void layoutStarted();
  void layoutFinished(double milliseconds);

 private:
  using PicturePtr = std::shared_ptr<const layout::ScopedLayout>;
  void relayout(int anchor);
  void showPicture(const PicturePtr& picture);
  void clearPicture();
  void addNodeItem(int index, const QRectF& box);
  void addEdgeItem(const layout::ScopedLayout::Edge& edge);
  void markWideFanOuts();
  QString endName(const layout::DrawnItem& item) const;
  /// Per scope, what its tinted nodes add up to (HeatSummary::Share) and its worst node (Worst).
  struct ScopeHeat {
    std::vector<qreal> within, worst;
    std::vector<QString> worst_node;
    qreal total = 0;
  };
  void applyHeat();
  void applyWorstHeat(const ScopeHeat& heat);
  void applyPendingReveal();
  /// The node a selection of `index` highlights: itself, or a folded weight's first user.
  int drawnStandIn(int index) const;
  /// Opens what `node` needs to be drawn; true when something changed.
  bool openAround(int node);
  void onSelectionChanged();
  void highlightEdgesOf(const QString& name);
  std::shared_ptr<layout::ScopedLayoutEngine> engine() const;
  layout::StackFolds stackFolds() const;
  /// Draws, for every folded run around `scope`, the member holding it; true when one changed.
  bool showMembersAround(int scope);
  /// Opens in `to` what is open in `from` (two instances of one stack), child by child.
  void mirrorExpansion(int from, int to);
  /// An instance's scopes (its one member, or its calls).
  std::vector<int> instanceScopes(int run, int instance) const;
  /// Makes `instance` the one drawn for `run` (its scopes opened as the shown one's were); true when it changed.
  bool switchInstance(int run, int instance);
  /// The run `scope` stands for in `picture` (its shown member, the fold in effect), or -1.
  int standsFor(int scope, const layout::ScopedLayout& picture) const;

  std::unique_ptr<CanvasStyle> style_;
  QFont base_font_;
  LoadedProgramPtr program_;
  std::vector<ir::Node*> program_nodes_;
  layout::ScopeExpansion expansion_;
  layout::ScopeExpansion as_opened_;  // what the program opened to, deepened as its stacks fold
  PicturePtr picture_;
  bool weights_shown_ = false;
  std::shared_ptr<layout::ScopedLayoutEngine> weights_engine_;  // weights as nodes (made when first asked)
  QHash<QString, NodeItem*> nodes_;
  QList<EdgeItem*> edges_;
  QList<ClusterItem*> clusters_;
  QList<ClusterLabelItem*> cluster_labels_;
  QHash<int, ScopeItem*> scope_items_;
  QSet<QGraphicsItem*> own_;  // what showPicture() made (other items, e.g. expansions, stay)
  QHash<QString, qreal> heat_;
  QHash<QString, QString> heat_labels_;
  HeatSummary heat_summary_ = HeatSummary::Share;
  QString selected_;          // the shared selection
  QStringList pending_reveal_;
  int pending_scope_ = -1;
  int anchor_ = -1;
  QRectF anchor_before_;
  bool redrawing_opening_ = false;  // the layout under way redraws the opening (see openingRedrawn)
  bool following_ = false;  // true while applying a selection from outside
  bool heat_shown_ = true;
  NodeRunTimes run_times_;
  std::vector<FoldedRun> runs_;
  std::vector<int> run_shown_;
  std::vector<bool> run_folded_;
  std::vector<bool> run_open_;
  QHash<int, std::vector<int>> runs_of_;  // scope -> the runs it is part of, outermost first
  QHash<int, int> run_box_of_;            // scope -> the run it is drawn for (the picture shown)
  BackgroundJobs<PicturePtr> jobs_{this};  // last: destroyed (waiting for its jobs) first
};

}  // namespace exportlens::ui

#pragma once
// Stacks drawn as one box on the canvas: every stack (6 × Block, and
// 3 × [2 × ConvBlock, Mixer] whose instance is several calls no module
// groups) becomes one folded run of the scene (GraphScene::setFoldedRuns),
// a box saying "6 × Block", the instances' range and the ops of all of
// them, its tooltip naming the instances that differ and how. Opening it
// shows one instance (the first, or the one a selection lies in: for a
// group, its calls each drawn as itself, the stacks inside folded again);
// the canvas's context menu on it picks which (Show Instance), draws every
// instance as a box of its own (Show All Instances, and back), and opens
// two instances side by side (Compare with…, a group's calls on each side).
// View › Fold Repeated Structure (on by default) turns it off: every
// instance drawn.
#include <QObject>
#include <QPointer>

#include <vector>

#include "ui/canvas/graph_scene.h"
#include "ui/structure/repeated_structure_model.h"

class QAction;
class QMenu;
class QWidget;

namespace exportlens::ui {

class GraphView;
class SideBySideView;
class StructurePanel;

/// Every stack of an analysis as a folded run of a scene: its members, its
/// groups' calls, and what its one box says (`6 × Block`, the instances'
/// range and ops, the boundary; the differing instances in the tooltip).
/// `stacks`, when given, receives each run's stack index.
std::vector<GraphScene::FoldedRun> stack_runs(const StructureSnapshot& snapshot, std::vector<int>* stacks = nullptr);

class CanvasStacks : public QObject {
  Q_OBJECT
 public:
  CanvasStacks(GraphScene* scene, GraphView* view, StructurePanel* panel, QObject* parent = nullptr);

  /// The stack (index into the analysis) each of the scene's folded runs draws.
  const std::vector<int>& runStacks() const { return run_stacks_; }
  /// View › Fold Repeated Structure (checked: stacks drawn as one box).
  QAction* foldAction() const { return fold_; }
  /// The comparison window last opened (null when closed).
  SideBySideView* comparison() const;

 public slots:
  /// Folds the analysed stacks on the canvas (when the analysis is of the program drawn).
  void refresh();
  /// Opens two instances of a stack side by side, corresponding nodes linked:
  /// `a` and `b` are their (first) scopes; instances of a repeated group are
  /// compared as the whole group.
  void compare(int a, int b);
  /// Opens instances `a` and `b` of the scene's folded run `run` side by side.
  void compareInstances(int run, int a, int b);

 private:
  void addStackActions(QMenu* menu, int scope);
  void addRunActions(QMenu* menu, const StructureSnapshot& snap, int run, int scope);

  GraphScene* scene_;
  StructurePanel* panel_;
  StructureSnapshotPtr applied_;
  std::vector<int> run_stacks_;
  QPointer<SideBySideView> comparison_;
  QAction* fold_;
};

}  // namespace exportlens::ui

#pragma once
// What the window is about, in one place every view subscribes to: the
// opened program, the IR level shown (the opened program or one of its
// lowerings), the one node selection, the latest dynamic-shapes solve and
// the latest run's per-node times. Views call selectNode() and follow the
// signals; nobody pushes a program into a view.
#include <QObject>
#include <QString>

#include "ui/core/ir_level_choice.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_run_times.h"
#include "ui/core/node_solve_facts.h"

namespace exportlens::ui {

class ProgramModel : public QObject {
  Q_OBJECT
 public:
  explicit ProgramModel(QObject* parent = nullptr);

  /// The opened file or trace, as exported (the training level); null before one opens.
  const LoadedProgramPtr& opened() const { return opened_; }
  /// What the views show: the opened program or one of its IR levels.
  const LoadedProgramPtr& loaded() const { return shown_; }
  /// nullptr until a program is loaded.
  const ir::ExportedProgram* program() const;
  const LevelChoice& level() const { return level_; }

  /// A new program opened: shown at its training level; solve and run times cleared.
  void setOpened(LoadedProgramPtr opened);
  /// Shows `program`, the opened program at `level`, keeping the user's
  /// place: `selected` (the node standing there for the one selected before)
  /// is the selection, and placeKept() tells the views to keep theirs.
  void setShown(const LevelChoice& level, LoadedProgramPtr program, const QString& selected = {});
  /// Whether the latest programChanged showed the same program at another
  /// level (views keep the modules open and the viewport), not a new one.
  bool placeKept() const { return place_kept_; }

  /// The node of the shown graph with this name, or nullptr.
  const ir::Node* node(const QString& name) const;
  const ir::Node* selectedNode() const { return selected_; }
  QString selectedName() const;

  /// The latest solve of the opened program's dynamic_shapes spec (null before the first).
  const SolveResultPtr& solve() const { return solve_; }
  /// Per node name (valid at every level: lowered nodes keep torch's names where they can).
  const NodeSolveFactsMap& solveFacts() const { return solve_facts_; }
  /// Whether the spec solved differs from the one the program was exported with.
  bool specEdited() const { return spec_edited_; }
  void setSolve(SolveResultPtr result, bool specEdited);

  const NodeRunTimes& runTimes() const { return run_times_; }
  void setRunTimes(NodeRunTimes times);

 public slots:
  /// Selects a node by name; an empty or unknown name clears the selection.
  void selectNode(const QString& name);

 signals:
  /// A new program was opened; emitted after programChanged (views showing it
  /// are up to date) for the parts that work on the opened program itself.
  void programOpened();
  /// The shown program changed: a new one opened, or another level.
  void programChanged();
  void levelChanged(const exportlens::ui::LevelChoice& level);
  void selectionChanged(const QString& name);
  void solveChanged();
  void runFinished();

 private:
  LoadedProgramPtr opened_, shown_;
  LevelChoice level_;
  const ir::Node* selected_ = nullptr;
  SolveResultPtr solve_;
  NodeSolveFactsMap solve_facts_;
  bool spec_edited_ = false;
  NodeRunTimes run_times_;
  bool place_kept_ = false;

  void show(const LevelChoice& level, LoadedProgramPtr program, bool keep_place, const QString& selected);
};

}  // namespace exportlens::ui

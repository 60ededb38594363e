#pragma once
// The Modules dock: the program's module calls as a tree (name, class, op
// count, time share after a run), in step with the canvas both ways: a row
// made current brings its scope into sight on the canvas, opening or closing
// a row opens or closes the scope there (and the other way round), and the
// row of the selected node's scope (or of the box picked) becomes current.
#include <QHash>
#include <QWidget>

class QTreeView;

namespace exportlens::ui {

class GraphScene;
class ModuleTreeModel;
class ProgramModel;

class ModulesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ModulesPanel(QWidget* parent = nullptr);

  /// Shows the model's program and its latest run's time shares; browses `scene` (the main canvas).
  void follow(ProgramModel* model, GraphScene* scene);
  QTreeView* tree() const { return tree_; }
  ModuleTreeModel* treeModel() const { return model_; }
  /// Per-node run times in milliseconds (the time share column); empty clears it.
  void setNodeTimes(const QHash<QString, double>& milliseconds);
  /// The scope of the current row (-1 when none).
  int currentScope() const;

 private:
  void showScope(int scope);
  void showTimeColumn();
  void followExpansion();

  QTreeView* tree_;
  ModuleTreeModel* model_;
  GraphScene* scene_ = nullptr;
  bool syncing_ = false;
};

}  // namespace exportlens::ui

#pragma once
// The Repeated structure dock: the module tree with stacks folded
// ("6 × Block (blocks.0 … blocks.5)"), each differing instance under its
// stack with a badge and its differences (tooltip and column); clicking a
// row selects its node everywhere. For the selected node, the instance
// selector lists the corresponding node in every instance of the stacks
// around it; choosing one selects that node. Follows the ProgramModel: the
// shown program is analysed off the GUI thread (with the guards of a
// Dim.AUTO re-solve, and the latest run's times after a run). The context
// menu on a differing instance compares it with its reference side by side.
#include <QWidget>

#include "ui/core/background_jobs.h"
#include "ui/structure/repeated_structure_model.h"

class QComboBox;
class QLabel;
class QTreeView;

namespace exportlens::ui {

class ProgramModel;

class StructurePanel : public QWidget {
  Q_OBJECT
 public:
  explicit StructurePanel(QWidget* parent = nullptr);
  ~StructurePanel() override;

  void follow(ProgramModel* model);

  RepeatedStructureModel* model() const { return model_; }
  QTreeView* tree() const { return tree_; }
  /// The instance selector: one entry per instance holding a node that
  /// corresponds to the selected one (NodeNameRole gives its name).
  QComboBox* instanceBox() const { return instances_; }
  QLabel* summary() const { return summary_; }
  bool isBusy() const { return jobs_.isBusy(); }

 signals:
  /// A new analysis is shown.
  void analysed();
  /// The tree's context menu asked to compare two instances (scopes) side by side.
  void compareRequested(int a, int b);

 private:
  void analyse();
  void show(StructureSnapshotPtr snapshot, const QString& error);
  void showCorresponding(const QString& node);
  void showTreeMenu(const QPoint& pos);

  ProgramModel* program_model_ = nullptr;
  RepeatedStructureModel* model_;
  QTreeView* tree_;
  QLabel* summary_;
  QLabel* corresponding_;
  QComboBox* instances_;
  bool filling_ = false;
  BackgroundJobs<StructureSnapshotPtr> jobs_;
};

}  // namespace exportlens::ui

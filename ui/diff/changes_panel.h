#pragma once
// The Changes dock of the diff window: what the diff found in one line
// (counts, how the nodes were matched), a legend of the colours, and the
// changes grouped by module call (changes_model.h). A click on a node's row
// selects it (and its counterpart) in the panes; on a module call's row,
// brings the call into sight on both sides.
#include <QWidget>

#include "ui/diff/diff_snapshot.h"

class QLabel;
class QTreeView;

namespace exportlens::ui {

class ChangesModel;

class ChangesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChangesPanel(QWidget* parent = nullptr);

  void setSnapshot(const DiffSnapshotPtr& snapshot);
  ChangesModel* model() const { return model_; }
  QTreeView* tree() const { return tree_; }
  QLabel* summary() const { return summary_; }
  /// Makes the row of a node of one side current (no signal).
  void showNode(SideBySideView::Side side, const QString& name);
  /// Makes the first node's change current, as if picked (nothing when no node changed).
  void showFirstChange();

 signals:
  /// A node row was picked: the node on each side ("" where it has none).
  void nodeActivated(const QString& left, const QString& right);
  /// A module call's row was picked: its scope on each side (-1 where it has none).
  void scopeActivated(int left, int right);

 private:
  void activate(const QModelIndex& index);

  QLabel* summary_;
  QTreeView* tree_;
  ChangesModel* model_;
  bool quiet_ = false;
};

}  // namespace exportlens::ui

#pragma once
// The Changes dock's tree: the diff's changes grouped by module call (the
// group row says what the summary says of that call: `GELU → ReLU; gelu →
// relu`), each changed, added or removed node a row under its call in the
// colour of its change; then the signature (user inputs and outputs), the
// guards and the weights (the graph inputs that hold them) that differ. Rows name the node on each side (LeftNodeRole /
// RightNodeRole) or the module call (LeftScopeRole / RightScopeRole), which
// selecting a row selects in the panes.
#include <QStandardItemModel>

#include "ui/diff/diff_snapshot.h"

namespace exportlens::ui {

class ChangesModel : public QStandardItemModel {
  Q_OBJECT
 public:
  static constexpr int LeftNodeRole = Qt::UserRole + 181;
  static constexpr int RightNodeRole = Qt::UserRole + 182;
  static constexpr int LeftScopeRole = Qt::UserRole + 183;
  static constexpr int RightScopeRole = Qt::UserRole + 184;
  static constexpr int StatusRole = Qt::UserRole + 185;  // diff::Status as int (node rows)

  explicit ChangesModel(QObject* parent = nullptr);
  void setSnapshot(const DiffSnapshotPtr& snapshot);
  /// The row of a node of one side (invalid when it did not change).
  QModelIndex indexOfNode(SideBySideView::Side side, const QString& name) const;
};

}  // namespace exportlens::ui

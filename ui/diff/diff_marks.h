#pragma once
// The diff drawn over one pane's canvas: every node that changed is
// outlined and tinted in its change's colour (diff_colours.h), a node with
// no counterpart (added in B, removed from A) also dashed and badged "+" or
// "−"; every collapsed module box, and every stack folded into one box (or
// opened on one of its instances), is framed in the colour of what changed
// inside it (in any instance; its counterpart's additions and removals
// included), with a badge saying what kind of change.
// One item of its own over the scene's (as the stack marks are), rebuilt
// on every new picture.
#include <QHash>
#include <QObject>
#include <QPointer>

#include "ui/diff/diff_snapshot.h"

namespace exportlens::ui {

class GraphScene;
class DiffMarksItem;

class DiffMarks : public QObject {
  Q_OBJECT
 public:
  DiffMarks(GraphScene* scene, SideBySideView::Side side, QObject* parent = nullptr);
  ~DiffMarks() override;

  void setSnapshot(DiffSnapshotPtr snapshot);
  /// The nodes marked and how (for tests): name -> status.
  QHash<QString, diff::Status> markedNodes() const;
  /// The boxes marked: scope -> ChangeFlags inside.
  QHash<int, unsigned> markedScopes() const;

 public slots:
  void refresh();

 private:
  GraphScene* scene_;
  SideBySideView::Side side_;
  DiffSnapshotPtr snapshot_;
  QPointer<DiffMarksItem> item_;
};

}  // namespace exportlens::ui

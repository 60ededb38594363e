#pragma once
// File › Compare With File…: the program on screen (A, left) and another
// file (B, right) side by side in the shared side-by-side view
// (ui/compare), diffed off the GUI thread with progress and cancel
// (BackgroundJobs: reading and laying out B, matching, classifying). Then
// each canvas is marked with what changed (diff_marks.h: nodes, collapsed
// modules and folded stacks in the colour of what changed inside), the
// Changes dock lists the changes by module call, and picking a node in
// either pane (or in the dock) selects its match in the other; a node
// without one is marked as such and leaves the other pane's selection empty.
#include <QMainWindow>

#include "ui/core/background_jobs.h"
#include "ui/diff/diff_snapshot.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace exportlens::ui {

class ChangesPanel;
class DiffMarks;

class DiffWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit DiffWindow(QWidget* parent = nullptr);
  ~DiffWindow() override;

  /// Shows `left` at once and diffs it against the program source at `rightPath`.
  void compareWithFile(const LoadedProgramPtr& left, const QString& rightPath);
  /// Diffs two programs already opened.
  void compare(const LoadedProgramPtr& left, const LoadedProgramPtr& right);
  /// Stops the diff under way (the window stays, saying so).
  void cancel();

  SideBySideView* view() const { return view_; }
  ChangesPanel* changes() const { return changes_; }
  DiffMarks* marks(SideBySideView::Side side) const { return marks_[side]; }
  const DiffSnapshotPtr& snapshot() const { return snapshot_; }
  bool isBusy() const { return jobs_.isBusy(); }

 signals:
  void diffReady();
  void failed(const QString& message);

 private:
  void start(const LoadedProgramPtr& left, std::function<LoadedProgramPtr(const JobContext&)> right);
  void showDiff(const DiffSnapshotPtr& snapshot);

  SideBySideView* view_;
  ChangesPanel* changes_;
  DiffMarks* marks_[2];
  QLabel* status_;
  QProgressBar* progress_;
  QToolButton* cancel_;
  DiffSnapshotPtr snapshot_;
  BackgroundJobs<DiffSnapshotPtr> jobs_{this};  // last: destroyed (waiting for its jobs) first
};

}  // namespace exportlens::ui

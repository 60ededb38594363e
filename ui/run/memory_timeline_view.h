#pragma once
// A run's memory timeline: the bytes live after each node, in the order the
// nodes ran (device memory from the caching allocator on a GPU; what the
// graph's values hold on the CPU), the peak marked. Clicking a point names
// its node (nodeActivated); the selected node is marked.
#include <QWidget>

#include <vector>

#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class MemoryTimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit MemoryTimelineView(QWidget* parent = nullptr);

  /// Shows a successful outcome's timeline (or why there is none).
  void setOutcome(const RunOutcome& outcome);
  void setSelectedNode(const QString& name);

  int pointCount() const { return static_cast<int>(points_.size()); }
  /// The node with the most live bytes, empty without points.
  QString peakNode() const;
  /// Where point i is drawn (widget coordinates), for clicks and tests.
  QPointF pointPosition(int i) const;
  QString nodeAt(int i) const;

  QSize sizeHint() const override { return {480, 180}; }

 signals:
  void nodeActivated(const QString& name);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  struct Point {
    QString node;
    qint64 live = 0, peak = 0;
  };
  QRectF plotArea() const;
  qint64 scaleMax() const;
  int nearestPoint(const QPointF& at) const;

  std::vector<Point> points_;
  int peak_ = -1;
  int selected_ = -1;
  QString note_;  // shown instead of a plot
  QString title_;
};

}  // namespace exportlens::ui

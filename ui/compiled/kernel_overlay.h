#pragma once
// A compiled model's kernels painted on the canvas, through the canvas' heat
// tint: before a run every node a kernel computes is tinted alike (its
// tooltip names the kernels); after a run of the compiled model each node
// by the time of its kernels, relative to the slowest (a kernel computing
// several nodes counts for each; nodes whose kernels were not timed are
// tinted faintly, their tooltip saying so). Turned off, the canvas goes back to the
// program's own run times.
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

class QAction;

namespace exportlens::ui {

class CompiledSession;
class GraphScene;
class ProgramModel;

class KernelOverlay : public QObject {
  Q_OBJECT
 public:
  /// The tint of a node computed by a kernel before any run.
  static constexpr double kMappedTint = 0.35;
  /// After a run, a node whose kernels the profiler did not time: still marked, faintly.
  static constexpr double kUntimedTint = 0.06;

  KernelOverlay(CompiledSession* session, GraphScene* scene, ProgramModel* model, QObject* parent = nullptr);
  /// View › Kernels on the Graph (checkable, on).
  QAction* action() const { return action_; }
  /// What each tinted node is tinted by, and its tooltip line.
  const QHash<QString, double>& fractions() const { return fractions_; }
  const QHash<QString, QString>& labels() const { return labels_; }
  /// Milliseconds per node from the latest compiled run (its kernels' times).
  const QHash<QString, double>& nodeMilliseconds() const { return milliseconds_; }

 public slots:
  void apply();

 signals:
  void changed();

 private:
  CompiledSession* session_;
  QPointer<GraphScene> scene_;
  ProgramModel* model_;
  QAction* action_;
  bool painted_ = false;
  QHash<QString, double> fractions_, milliseconds_;
  QHash<QString, QString> labels_;
};

}  // namespace exportlens::ui

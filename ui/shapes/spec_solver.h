#pragma once
// Re-solves the spec off the GUI thread as the user edits it: requests are
// debounced (a burst of edits solves once), one solve runs at a time, and a
// result that a newer request has made stale is dropped.
#include <QObject>
#include <QTimer>

#include <memory>

#include "engine/ops/solve_result.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_solve_facts.h"

namespace exportlens::ui {

class SpecSolver : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDefaultDelayMs = 150;

  explicit SpecSolver(QObject* parent = nullptr);
  ~SpecSolver() override;

  /// The program to solve on (its PreparedProgram); drops any pending work.
  void setProgram(const LoadedProgramPtr& program);
  void setDelay(int milliseconds) { debounce_.setInterval(milliseconds); }

  /// Solve `spec` after the debounce delay (at once when `immediate`).
  void request(const symbolic::DynamicShapesSpec& spec, bool immediate = false);
  /// A request is waiting or being solved.
  bool isBusy() const { return waiting_ || jobs_.isRunning(); }

 signals:
  void solving();
  /// The result for the latest request.
  void solved(exportlens::ui::SolveResultPtr result);

 private:
  void launch();
  void finish(JobOutcome<SolveResultPtr>& outcome, quint64 generation);

  LoadedProgramPtr program_;
  QTimer debounce_;
  symbolic::DynamicShapesSpec pending_;
  quint64 generation_ = 0;   // of the latest request
  bool waiting_ = false;     // a request not yet launched
  BackgroundJobs<SolveResultPtr> jobs_{this};  // the running solve (solve() cannot be interrupted)
};

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::SolveResultPtr)

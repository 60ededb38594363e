#include "ui/spec_solver.h"

#include <QtConcurrent/QtConcurrentRun>

#include "engine/ops/program_solver.h"

namespace exportlens::ui {
namespace {

SolveResultPtr solve_on_worker(const LoadedProgramPtr& program, const symbolic::DynamicShapesSpec& spec) {
  auto result = std::make_shared<ops::SolveResult>();
  try {
    ops::SolveOptions options;
    options.log = false;
    *result = ops::solve(*program->prepared, spec, options);
  } catch (const std::exception& e) {  // solve() reports bad specs itself; this is a bug's safety net
    result->status = ops::SolveStatus::Error;
    result->error_kind = "internal";
    result->message = e.what();
  }
  return result;
}

}  // namespace

SpecSolver::SpecSolver(QObject* parent) : QObject(parent) {
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDefaultDelayMs);
  connect(&debounce_, &QTimer::timeout, this, &SpecSolver::launch);
}

SpecSolver::~SpecSolver() {
  for (auto* watcher : findChildren<QFutureWatcher<SolveResultPtr>*>()) watcher->waitForFinished();
}

void SpecSolver::setProgram(const LoadedProgramPtr& program) {
  program_ = program && program->prepared ? program : nullptr;
  ++generation_;  // whatever runs now is for the old program
  waiting_ = false;
  debounce_.stop();
}

void SpecSolver::request(const symbolic::DynamicShapesSpec& spec, bool immediate) {
  if (!program_) return;
  pending_ = spec;
  ++generation_;
  waiting_ = true;
  emit solving();
  if (immediate) {
    debounce_.stop();
    launch();
  } else {
    debounce_.start();
  }
}

void SpecSolver::launch() {
  if (!waiting_ || !program_ || watcher_) return;  // a running solve launches the waiting one when it ends
  waiting_ = false;
  const quint64 generation = generation_;
  auto* watcher = new QFutureWatcher<SolveResultPtr>(this);
  watcher_ = watcher;
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] { finish(watcher, generation); });
  watcher->setFuture(QtConcurrent::run(solve_on_worker, program_, pending_));
}

void SpecSolver::finish(QFutureWatcher<SolveResultPtr>* watcher, quint64 generation) {
  watcher->deleteLater();
  if (watcher == watcher_) watcher_ = nullptr;
  if (generation == generation_ && watcher->future().resultCount() > 0) {
    emit solved(watcher->result());
  } else if (waiting_ && !debounce_.isActive()) {
    launch();  // stale: the newer request was waiting for this one
  }
}

}  // namespace exportlens::ui

#include "ui/shapes/spec_solver.h"

#include "engine/ops/program_solver.h"

namespace exportlens::ui {
namespace {

SolveResultPtr solve_on_worker(const LoadedProgramPtr& program, const symbolic::DynamicShapesSpec& spec) {
  ops::SolveOptions options;
  options.log = false;
  options.collect_all = true;  // the Violations dock lists every problem of the spec in one pass
  return std::make_shared<ops::SolveResult>(ops::solve(*program->prepared, spec, options));
}

// solve() reports bad specs itself; an exception is a bug's safety net, shown as the solve's error.
SolveResultPtr internal_error(const QString& message) {
  auto result = std::make_shared<ops::SolveResult>();
  result->status = ops::SolveStatus::Error;
  result->error_kind = "internal";
  result->message = message.toStdString();
  return result;
}

}  // namespace

SpecSolver::SpecSolver(QObject* parent) : QObject(parent) {
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDefaultDelayMs);
  connect(&debounce_, &QTimer::timeout, this, &SpecSolver::launch);
  // A stale solve's end launches the request that was waiting for it.
  jobs_.onSettled([this] {
    if (waiting_ && !debounce_.isActive()) launch();
  });
}

SpecSolver::~SpecSolver() = default;  // jobs_ waits for the running solve

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
  if (!waiting_ || !program_ || jobs_.isRunning()) return;  // a running solve launches the waiting one when it ends
  waiting_ = false;
  const quint64 generation = generation_;
  jobs_.start([program = program_, spec = pending_](JobContext&,
                                                    SolveResultPtr& out) { out = solve_on_worker(program, spec); },
              [this, generation](JobOutcome<SolveResultPtr>& outcome) { finish(outcome, generation); });
}

void SpecSolver::finish(JobOutcome<SolveResultPtr>& outcome, quint64 generation) {
  if (generation != generation_) return;  // stale: onSettled launches the newer request
  emit solved(outcome.value ? outcome.value : internal_error(outcome.error));
}

}  // namespace exportlens::ui

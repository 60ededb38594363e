#include "ui/ir_level_controller.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "ui/program_presentation.h"

namespace exportlens::ui {

using ProgramPtr = std::shared_ptr<const ir::ExportedProgram>;

struct LevelJobResult {
  ProgramPtr functional, program;
  LoadedProgramPtr shown;
  QStringList functionalWarnings, warnings;
  QString error;
  bool cancelled = false;
};

namespace {

struct LevelJobInput {
  ProgramPtr training, functional;
  LevelChoice choice;
  bool layOut = false;
  PresentationRequest presentation;
};

QStringList to_qt(const passes::LoweringReport& report) {
  QStringList out;
  for (const std::string& w : report.warnings) out.append(QString::fromStdString(w));
  return out;
}

void report(QPromise<LevelJobResult>& promise, double percent, const QString& stage) {
  promise.setProgressValueAndText(static_cast<int>(std::lround(percent)), stage);
}

// The level's program: the functional one first (from the cache or made here), then core from it.
void lower(QPromise<LevelJobResult>& promise, const LevelJobInput& in, LevelJobResult& out) {
  out.functional = in.functional;
  if (in.choice.level == passes::IrLevel::Training) {
    out.program = in.training;
    return;
  }
  if (!out.functional) {
    report(promise, 5, QObject::tr("Lowering to the functional IR…"));
    passes::LoweringReport r;
    out.functional = std::make_shared<const ir::ExportedProgram>(
        passes::lower_to(*in.training, passes::IrLevel::Functional, nullptr, &r));
    out.functionalWarnings = to_qt(r);
  }
  if (in.choice.level == passes::IrLevel::Functional) {
    out.program = out.functional;
    out.warnings = out.functionalWarnings;
    return;
  }
  report(promise, 20, QObject::tr("Lowering to %1…").arg(in.choice.label()));
  const passes::DecompositionTable table = passes::decomposition_table(in.choice.table.toStdString());
  passes::LoweringReport r;
  out.program = std::make_shared<const ir::ExportedProgram>(
      passes::lower_to(*out.functional, passes::IrLevel::Core, &table, &r));
  out.warnings = to_qt(r);
}

void run_level_job(QPromise<LevelJobResult>& promise, const LevelJobInput& in) {
  LevelJobResult out;
  try {
    promise.setProgressRange(0, 100);
    lower(promise, in, out);
    if (in.presentation.token->is_cancelled()) throw layout::Cancelled();
    if (in.layOut) {
      out.shown = present_program(out.program, in.presentation, [&](double fraction, const QString& stage) {
        report(promise, 40 + 60 * fraction, stage);
      });
    }
  } catch (const layout::Cancelled&) {
    out.cancelled = true;
  } catch (const std::exception& e) {
    out.error = QString::fromUtf8(e.what());
  } catch (...) {
    out.error = QObject::tr("unknown error");
  }
  promise.addResult(std::move(out));
}

}  // namespace

IrLevelController::IrLevelController(QObject* parent) : QObject(parent), choices_(level_choices()) {
  qRegisterMetaType<LevelChoice>();
}

IrLevelController::~IrLevelController() {
  if (token_) token_->cancel();
  for (auto* watcher : findChildren<QFutureWatcher<LevelJobResult>*>()) watcher->waitForFinished();
}

void IrLevelController::setTraining(const LoadedProgramPtr& training) {
  if (watcher_) {
    token_->cancel();
    watcher_ = nullptr;
  }
  queue_.clear();
  programs_.clear();
  shown_.clear();
  warnings_.clear();
  errors_.clear();
  choices_ = level_choices();  // a library may have registered tables since
  training_ = training;
  current_ = LevelChoice::training();
  if (training) {
    programs_.insert(current_.key(), training->program);
    shown_.insert(current_.key(), training);
  }
  emit currentChanged(current_, training);
  emit levelsChanged();
}

ProgramPtr IrLevelController::program(const LevelChoice& choice) const { return programs_.value(choice.key()); }

bool IrLevelController::satisfied(const Job& job) const {
  if (!job.show && errors_.contains(job.choice.key())) return true;  // not again in the background
  return job.layOut ? shown_.contains(job.choice.key()) : programs_.contains(job.choice.key());
}

void IrLevelController::switchTo(const LevelChoice& choice) {
  if (!training_) return;
  // The latest request wins: earlier ones still fill the cache, without showing.
  running_.show = false;
  for (Job& job : queue_) job.show = false;
  if (shown_.contains(choice.key())) {
    show(choice);
    return;
  }
  queue_.append({choice, true, true});
  if (!watcher_) startNext();
}

void IrLevelController::prepare(const QList<LevelChoice>& levels, bool layOut) {
  if (!training_) return;
  for (const LevelChoice& choice : levels) {
    const Job job{choice, layOut, false};
    if (!satisfied(job)) queue_.append(job);
  }
  if (!watcher_) startNext();
}

void IrLevelController::cancel() {
  queue_.clear();
  if (!watcher_) return;
  token_->cancel();
  watcher_ = nullptr;
  emit cancelled();
  emit idle();
}

void IrLevelController::show(const LevelChoice& choice) {
  current_ = choice;
  const LevelChoice shown = current_;  // `choice` may live in a view that the signal changes
  emit currentChanged(shown, shown_.value(shown.key()));
}

void IrLevelController::startNext() {
  while (!queue_.isEmpty()) {
    running_ = queue_.takeFirst();
    if (satisfied(running_)) {
      if (running_.show) show(running_.choice);
      continue;
    }
    token_ = std::make_shared<layout::CancelToken>();
    LevelJobInput input{training_->program, programs_.value(LevelChoice::functional().key()), running_.choice,
                        running_.layOut,
                        PresentationRequest{training_->path,
                                            tr("%1 (%2)").arg(training_->displayName, running_.choice.label()),
                                            NodeMetrics(node_font_), cluster_label_height(node_font_), token_}};
    watcher_ = new QFutureWatcher<LevelJobResult>(this);
    auto* watcher = watcher_;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher](int value) {
      if (watcher == watcher_ && running_.show) emit progress(value, watcher->progressText());
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] { finish(watcher); });
    if (running_.show) emit started(tr("Lowering to %1").arg(running_.choice.label()));
    watcher->setFuture(
        QtConcurrent::run([input](QPromise<LevelJobResult>& promise) { run_level_job(promise, input); }));
    return;
  }
  emit idle();
}

void IrLevelController::finish(QFutureWatcher<LevelJobResult>* watcher) {
  watcher->deleteLater();
  if (watcher != watcher_) return;  // cancelled, or the program changed meanwhile
  watcher_ = nullptr;
  const Job job = running_;
  if (watcher->future().resultCount() == 0) {
    if (job.show) emit failed(job.choice, tr("the lowering task ended without a result"));
    startNext();
    return;
  }
  const LevelJobResult result = watcher->result();
  if (result.functional && !programs_.contains(LevelChoice::functional().key())) {
    programs_.insert(LevelChoice::functional().key(), result.functional);
    warnings_.insert(LevelChoice::functional().key(), result.functionalWarnings);
  }
  if (result.program) {
    programs_.insert(job.choice.key(), result.program);
    warnings_.insert(job.choice.key(), result.warnings);
  }
  if (result.shown) shown_.insert(job.choice.key(), result.shown);
  if (result.cancelled) {
    emit cancelled();
  } else if (!result.error.isEmpty()) {
    // Failing to lower one level says nothing about the next request: go on.
    errors_.insert(job.choice.key(), result.error);
    if (job.show) emit failed(job.choice, result.error);
  } else if (job.show) {
    show(job.choice);
  }
  emit levelsChanged();
  startNext();
}

}  // namespace exportlens::ui

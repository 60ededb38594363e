#include "ui/levels/ir_level_controller.h"

#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "ui/core/program_presentation.h"

namespace exportlens::ui {

using ProgramPtr = std::shared_ptr<const ir::ExportedProgram>;

namespace {

struct LevelJobInput {
  ProgramPtr training, functional;
  LevelChoice choice;
  bool layOut = false;
  QString path, displayName;
  NodeMetrics metrics;
  qreal clusterLabelHeight;
};

QStringList to_qt(const passes::LoweringReport& report) {
  QStringList out;
  for (const std::string& w : report.warnings) out.append(QString::fromStdString(w));
  return out;
}

// The level's program: the functional one first (from the cache or made here), then core from it.
void lower(const JobContext& context, const LevelJobInput& in, LevelJobResult& out) {
  out.functional = in.functional;
  if (in.choice.level == passes::IrLevel::Training) {
    out.program = in.training;
    return;
  }
  // Each lowering reports its nodes in its share of the bar, and stops between them when cancelled.
  auto stage = [&](double from, double to, const QString& what) {
    return exportlens::Progress{[&context, from, to, what](int done, int total) {
                      if (total > 0 && done % 64 == 0) context.progress(from + (to - from) * done / total, what);
                    },
                    context.token().get()};
  };
  if (!out.functional) {
    const QString what = QObject::tr("Lowering to the functional IR…");
    context.progress(5, what);
    passes::LoweringReport r;
    out.functional = std::make_shared<const ir::ExportedProgram>(
        passes::lower_to(*in.training, passes::IrLevel::Functional, nullptr, &r, stage(5, 20, what)));
    out.functionalWarnings = to_qt(r);
  }
  if (in.choice.level == passes::IrLevel::Functional) {
    out.program = out.functional;
    out.warnings = out.functionalWarnings;
    return;
  }
  const QString what = QObject::tr("Lowering to %1…").arg(in.choice.label());
  context.progress(20, what);
  const passes::DecompositionTable table = passes::decomposition_table(in.choice.table.toStdString());
  passes::LoweringReport r;
  out.program = std::make_shared<const ir::ExportedProgram>(
      passes::lower_to(*out.functional, passes::IrLevel::Core, &table, &r, stage(20, 40, what)));
  out.warnings = to_qt(r);
}

void run_level_job(const JobContext& context, const LevelJobInput& in, LevelJobResult& out) {
  lower(context, in, out);
  context.checkCancelled();
  if (!in.layOut) return;
  const PresentationRequest presentation{in.path, in.displayName, in.metrics, in.clusterLabelHeight, context.token()};
  out.shown = present_program(out.program, presentation, [&](double fraction, const QString& stage) {
    context.progress(40 + 60 * fraction, stage);
  });
}

}  // namespace

IrLevelController::IrLevelController(QObject* parent) : QObject(parent), choices_(level_choices()) {
  qRegisterMetaType<LevelChoice>();
  jobs_.onProgress([this](int percent, const QString& stage) {
    if (running_.show) emit progress(percent, stage);
  });
}

IrLevelController::~IrLevelController() = default;  // jobs_ cancels and waits for the running job

void IrLevelController::setTraining(const LoadedProgramPtr& training) {
  jobs_.dropAll();
  queue_.clear();
  programs_.clear();
  shown_.clear();
  warnings_.clear();
  errors_.clear();
  // A library may have registered tables since; the first entry says what the file holds.
  choices_ = level_choices(training ? LevelChoice::opened(*training->program) : LevelChoice::training());
  training_ = training;
  current_ = choices_.first();
  if (training) {
    programs_.insert(current_.key(), training->program);
    shown_.insert(current_.key(), training);
  }
  emit currentChanged(current_, training);
  emit levelsChanged();
}

ProgramPtr IrLevelController::program(const LevelChoice& choice) const { return programs_.value(choice.key()); }

LevelChoice IrLevelController::entry(const LevelChoice& choice) const {
  for (const LevelChoice& c : choices_)
    if (c == choice) return c;
  return choice;
}

bool IrLevelController::satisfied(const Job& job) const {
  if (!job.show && errors_.contains(job.choice.key())) return true;  // not again in the background
  return job.layOut ? shown_.contains(job.choice.key()) : programs_.contains(job.choice.key());
}

void IrLevelController::switchTo(const LevelChoice& requested) {
  if (!training_) return;
  const LevelChoice choice = entry(requested);
  // The latest request wins: earlier ones still fill the cache, without showing.
  running_.show = false;
  for (Job& job : queue_) job.show = false;
  if (shown_.contains(choice.key())) {
    show(choice);
    return;
  }
  queue_.append({choice, true, true});
  if (!jobs_.isBusy()) startNext();
}

void IrLevelController::prepare(const QList<LevelChoice>& levels, bool layOut) {
  if (!training_) return;
  for (const LevelChoice& choice : levels) {
    const Job job{entry(choice), layOut, false};
    if (!satisfied(job)) queue_.append(job);
  }
  if (!jobs_.isBusy()) startNext();
}

void IrLevelController::cancel() {
  queue_.clear();
  if (!jobs_.dropAll()) return;
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
    LevelJobInput input{training_->program,
                        programs_.value(LevelChoice::functional().key()),
                        running_.choice,
                        running_.layOut,
                        training_->path,
                        tr("%1 (%2)").arg(training_->displayName, running_.choice.label()),
                        NodeMetrics(node_font_),
                        cluster_label_height(node_font_)};
    jobs_.start([input](JobContext& context, LevelJobResult& out) { run_level_job(context, input, out); },
                [this](JobOutcome<LevelJobResult>& outcome) { finish(outcome); });
    if (running_.show) emit started(tr("Lowering to %1").arg(running_.choice.label()));
    return;
  }
  emit idle();
}

// Only the running job's outcome comes here: a cancelled one, or one for a program closed meanwhile, is dropped.
void IrLevelController::finish(const JobOutcome<LevelJobResult>& outcome) {
  const Job job = running_;
  const LevelJobResult& result = outcome.value;
  if (result.functional && !programs_.contains(LevelChoice::functional().key())) {
    programs_.insert(LevelChoice::functional().key(), result.functional);
    warnings_.insert(LevelChoice::functional().key(), result.functionalWarnings);
  }
  if (result.program) {
    programs_.insert(job.choice.key(), result.program);
    warnings_.insert(job.choice.key(), result.warnings);
  }
  if (result.shown) shown_.insert(job.choice.key(), result.shown);
  if (outcome.cancelled) {
    emit cancelled();
  } else if (!outcome.error.isEmpty()) {
    // Failing to lower one level says nothing about the next request: go on.
    errors_.insert(job.choice.key(), outcome.error);
    if (job.show) emit failed(job.choice, outcome.error);
  } else if (job.show) {
    show(job.choice);
  }
  emit levelsChanged();
  startNext();
}

}  // namespace exportlens::ui

#include "ui/run_worker.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPromise>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace exportlens::ui {
namespace {

std::filesystem::path to_path(const QString& path) { return QFile::encodeName(path).toStdString(); }

struct RunJob {
  LoadedProgramPtr program;
  RunSettings settings;
  std::shared_ptr<std::atomic<bool>> cancel;
};

class Cancelled {};

// One runtime run, its progress mapped into [from, to] percent.
runtime::RunReport run_once(QPromise<RunOutcome>& promise, const RunJob& job, runtime::RunRequest request, int from,
                            int to, const QString& stage) {
  request.time_nodes = true;
  for (const QString& op : job.settings.allowedOps) request.allowed_ops.insert(op.toStdString());
  request.progress = [&promise, &job, from, to, stage](int done, int total) {
    if (job.cancel->load()) return false;
    const double fraction = total > 0 ? double(done) / total : 1.0;
    promise.setProgressValueAndText(from + static_cast<int>(std::lround(fraction * (to - from))), stage);
    return true;
  };
  try {
    return runtime::run_program(*job.program->program, request);
  } catch (...) {
    if (job.cancel->load()) throw Cancelled();
    throw;
  }
}

void run_job(QPromise<RunOutcome>& promise, const RunJob& job) {
  RunOutcome outcome;
  outcome.settings = job.settings;
  QElapsedTimer timer;
  timer.start();
  promise.setProgressRange(0, 100);
  const bool with_reference = !job.settings.onCpu();
  try {
    QTemporaryDir scratch;  // the inputs used, for the reference run
    runtime::RunRequest request;
    request.device = job.settings.device.toStdString();
    if (job.settings.inputs == RunSettings::Inputs::File) {
      request.inputs_file = to_path(job.settings.inputsFile);
    } else {
      request.random_inputs = true;
      request.seed = job.settings.seed;
    }
    const QString used_inputs = scratch.filePath(QStringLiteral("inputs.pt"));
    if (with_reference && scratch.isValid()) request.used_inputs_file = to_path(used_inputs);
    const QString stage = QObject::tr("Running on %1…").arg(device_display_name(job.settings.device));
    outcome.report = run_once(promise, job, request, 0, with_reference ? 60 : 100, stage);
    if (with_reference) {
      runtime::RunRequest reference;
      reference.inputs_file = to_path(used_inputs);
      try {
        outcome.reference = run_once(promise, job, reference, 60, 100, QObject::tr("Running on the CPU for reference…"));
      } catch (const std::exception& e) {
        outcome.referenceError = QString::fromUtf8(e.what());
      }
    }
  } catch (const Cancelled&) {
    outcome.cancelled = true;
  } catch (const std::exception& e) {
    outcome.report.reset();
    outcome.error = QString::fromUtf8(e.what());
  } catch (...) {
    outcome.report.reset();
    outcome.error = QObject::tr("unknown error");
  }
  outcome.seconds = timer.elapsed() / 1000.0;
  promise.addResult(std::move(outcome));
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : QObject(parent) {}

RunWorker::~RunWorker() {
  if (cancel_) cancel_->store(true);
  for (auto* watcher : findChildren<QFutureWatcher<RunOutcome>*>()) watcher->waitForFinished();
}

bool RunWorker::deviceAvailable(const QString& device, QString* why) {
  std::string reason;
  const bool ok = runtime::device_available(device.toStdString(), &reason);
  if (!ok && why) *why = QString::fromStdString(reason);
  return ok;
}

void RunWorker::start(const LoadedProgramPtr& program, const RunSettings& settings) {
  RunOutcome refused;
  refused.settings = settings;
  QString why;
  if (isBusy()) {
    refused.error = tr("a run is already in progress");
  } else if (!program) {
    refused.error = tr("no program is open");
  } else if (!deviceAvailable(settings.device, &why)) {
    refused.error = tr("%1 is not available here: %2").arg(device_display_name(settings.device), why);
  } else if (settings.inputs == RunSettings::Inputs::File && settings.inputsFile.isEmpty()) {
    refused.error = tr("choose an inputs file (a torch.save'd tuple of the inputs), or use random inputs");
  }
  if (!refused.error.isEmpty()) {
    emit finished(refused);
    return;
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  RunJob job{program, settings, cancel_};
  watcher_ = new QFutureWatcher<RunOutcome>(this);
  auto* watcher = watcher_;
  connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher](int value) {
    if (watcher == watcher_) emit progress(value, watcher->progressText());
  });
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] { finish(watcher); });
  emit started(settings);
  watcher->setFuture(QtConcurrent::run([job](QPromise<RunOutcome>& promise) { run_job(promise, job); }));
}

void RunWorker::cancel() {
  if (!watcher_) return;
  // The runtime stops before its next node; the outcome is dropped.
  cancel_->store(true);
  watcher_ = nullptr;
  emit cancelled();
}

void RunWorker::finish(QFutureWatcher<RunOutcome>* watcher) {
  watcher->deleteLater();
  if (watcher != watcher_) return;  // cancelled meanwhile
  watcher_ = nullptr;
  if (watcher->future().resultCount() == 0) {
    RunOutcome lost;
    lost.error = tr("the run ended without a result");
    emit finished(lost);
    return;
  }
  const RunOutcome outcome = watcher->result();
  if (outcome.cancelled) {
    emit cancelled();
  } else {
    emit finished(outcome);
  }
}

}  // namespace exportlens::ui

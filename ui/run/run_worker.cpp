#include "ui/run/run_worker.h"

#include <QFile>
#include <QTemporaryDir>

namespace exportlens::ui {
namespace {

std::filesystem::path to_path(const QString& path) { return QFile::encodeName(path).toStdString(); }

// One runtime run, its progress mapped into [from, to] percent; it stops
// before its next node once the job is cancelled.
runtime::RunReport run_once(const JobContext& context, const LoadedProgram& program, runtime::RunRequest request,
                            int from, int to, const QString& stage) {
  request.time_nodes = true;
  request.progress = [&context, from, to, stage](int done, int total) {
    if (context.isCancelled()) return false;
    const double fraction = total > 0 ? double(done) / total : 1.0;
    context.progress(from + fraction * (to - from), stage);
    return true;
  };
  return runtime::run_program(*program.program, request);
}

void run_job(const JobContext& context, const LoadedProgram& program, RunOutcome& outcome) {
  const RunSettings& settings = outcome.settings;
  const bool with_reference = !settings.onCpu();
  QTemporaryDir scratch;  // the inputs used, for the reference run
  runtime::RunRequest request;
  request.device = settings.device.toStdString();
  for (const QString& op : settings.allowedOps) request.allowed_ops.insert(op.toStdString());
  if (settings.inputs == RunSettings::Inputs::File) {
    request.inputs_file = to_path(settings.inputsFile);
  } else {
    request.random_inputs = true;
    request.seed = settings.seed;
  }
  const QString used_inputs = scratch.filePath(QStringLiteral("inputs.pt"));
  if (with_reference && scratch.isValid()) request.used_inputs_file = to_path(used_inputs);
  const QString stage = QObject::tr("Running on %1…").arg(device_display_name(settings.device));
  outcome.report = run_once(context, program, request, 0, with_reference ? 60 : 100, stage);
  if (!with_reference) return;
  runtime::RunRequest reference;
  reference.inputs_file = to_path(used_inputs);
  reference.allowed_ops = request.allowed_ops;
  try {
    outcome.reference =
        run_once(context, program, reference, 60, 100, QObject::tr("Running on the CPU for reference…"));
  } catch (const std::exception& e) {
    if (context.isCancelled()) throw;
    outcome.referenceError = QString::fromUtf8(e.what());
  }
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
  jobs_.onProgress([this](int percent, const QString& stage) { emit progress(percent, stage); });
}

RunWorker::~RunWorker() = default;  // jobs_ stops the run before its next node and waits

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
  jobs_.start(
      [program, settings](JobContext& context, RunOutcome& out) {
        out.settings = settings;
        run_job(context, *program, out);
      },
      [this](JobOutcome<RunOutcome>& outcome) { finish(outcome); });
  emit started(settings);  // busy already; progress arrives through the event loop, after this
}

void RunWorker::cancel() {
  // The runtime stops before its next node; the outcome is dropped.
  if (jobs_.dropAll()) emit cancelled();
}

void RunWorker::finish(JobOutcome<RunOutcome>& outcome) {
  RunOutcome& run = outcome.value;
  run.seconds = outcome.seconds;
  if (outcome.cancelled) {
    emit cancelled();
    return;
  }
  if (!outcome.error.isEmpty()) {
    run.report.reset();
    run.error = outcome.error;
  }
  emit finished(run);
}

}  // namespace exportlens::ui

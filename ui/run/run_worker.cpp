#include "ui/run/run_worker.h"

#include <QFile>

namespace exportlens::ui {
namespace {

std::filesystem::path to_path(const QString& path) { return QFile::encodeName(path).toStdString(); }

// One runtime call: the run (warm-up and timed repeats), the profiled run
// (kernels, memory), the CUDA graph and the CPU reference, all in the
// runtime; it stops before its next node once the job is cancelled.
void run_job(const JobContext& context, const LoadedProgram& program, RunOutcome& outcome) {
  const RunSettings& settings = outcome.settings;
  runtime::RunRequest request;
  request.device = settings.device.toStdString();
  for (const QString& op : settings.allowedOps) request.allowed_ops.insert(op.toStdString());
  if (settings.inputs == RunSettings::Inputs::File) {
    request.inputs_file = to_path(settings.inputsFile);
  } else {
    request.random_inputs = true;
    request.seed = settings.seed;
  }
  request.time_nodes = true;
  request.profile_device = true;
  request.precision = settings.precision;
  request.compare_cpu = settings.comparesWithCpu();
  request.cuda_graph = settings.cudaGraph && !settings.onCpu();
  request.warmup = settings.warmup;
  request.repeat = settings.repeat;
  const QString stage = QObject::tr("Running on %1…").arg(device_display_name(settings.device));
  request.cancel = context.token().get();
  request.progress = [&context, stage](int done, int total) {
    context.progress(total > 0 ? 100.0 * done / total : 100.0, stage);
  };
  outcome.report = runtime::run_program(*program.program, request);
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
  jobs_.onProgress([this](int percent, const QString& stage) { emit progress(percent, stage); });
}

RunWorker::~RunWorker() = default;  // jobs_ stops the run before its next node and waits

bool RunWorker::deviceAvailable(const QString& device, QString* why, QString* fix) {
  std::string reason, remedy;
  const bool ok = runtime::device_available(device.toStdString(), &reason, &remedy);
  if (!ok && why) *why = QString::fromStdString(reason);
  if (!ok && fix) *fix = QString::fromStdString(remedy);
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

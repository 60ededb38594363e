#include "ui/core/program_loader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include "engine/layout/layout_graph.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "ui/core/program_presentation.h"

namespace exportlens::ui {
namespace {

LoadedProgramPtr read_and_present(const JobContext& context, const ProgramReader& reader,
                                  const PresentationRequest& presentation) {
  QElapsedTimer timer;
  timer.start();
  context.progress(2, QObject::tr("Reading %1…").arg(presentation.displayName));
  auto program = std::make_shared<ir::ExportedProgram>(reader(presentation.path));
  context.checkCancelled();
  auto loaded = present_program(std::move(program), presentation, [&](double fraction, const QString& stage) {
    context.progress(20 + 80 * fraction, stage);
  });
  loaded->seconds = timer.elapsed() / 1000.0;
  context.progress(100, QObject::tr("Done"));
  return loaded;
}

}  // namespace

ProgramReader pt2_reader(const QString& program) {
  return [program = program.toStdString()](const QString& path) {
    // A .pt2: the program and the weights' index only; a run, the value
    // preview or a save reads the weights when it needs them (TensorPayload::data()).
    // The dispatcher's schemas bind the arguments of files that do not record how they were passed (torch <= 2.6).
    sources::OpenRequest request;
    request.read = runtime::pt2_read_options();
    request.read.load_weights = false;
    request.program = program;
    return sources::open_program(QFile::encodeName(path).toStdString(), request);
  };
}

ProgramLoader::ProgramLoader(QObject* parent) : QObject(parent), reader_(pt2_reader()) {
  jobs_.onProgress([this](int percent, const QString& stage) { emit progress(percent, stage); });
}

ProgramLoader::~ProgramLoader() = default;  // jobs_ cancels and waits for every load

void ProgramLoader::load(const QString& path, const QString& displayName) {
  jobs_.dropAll();  // replaced, not cancelled: no signal
  path_ = path;
  jobs_.start(
      [reader = reader_, path, name = displayName.isEmpty() ? QFileInfo(path).fileName() : displayName,
       metrics = NodeMetrics(node_font_), label = cluster_label_height(node_font_)](JobContext& context,
                                                                                   LoadedProgramPtr& out) {
        out = read_and_present(context, reader, {path, name, metrics, label, context.token()});
      },
      [this](JobOutcome<LoadedProgramPtr>& outcome) { finish(outcome); });
  emit started(path);  // busy already; progress arrives through the event loop, after this
}

void ProgramLoader::cancel() {
  // The worker stops at its next check; its result is dropped when it ends.
  if (jobs_.dropAll()) emit cancelled(path_);
}

void ProgramLoader::finish(JobOutcome<LoadedProgramPtr>& outcome) {
  if (outcome.value && outcome.ok()) {
    emit loaded(outcome.value);
  } else if (outcome.cancelled) {
    emit cancelled(path_);
  } else {
    emit failed(path_, outcome.error);
  }
}

}  // namespace exportlens::ui

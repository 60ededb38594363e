#include "ui/program_loader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <filesystem>

#include "engine/ir/printer.h"
#include "engine/layout/layout_graph.h"
#include "engine/serde/pt2_reader.h"
#include "ui/node_display.h"
#include "ui/node_metrics.h"

namespace exportlens::ui {
namespace {

struct LoadRequest {
  ProgramReader reader;
  QString path;
  QString displayName;
  NodeMetrics metrics;  // made on the GUI thread; measuring is reentrant
  qreal clusterLabelHeight;
  std::shared_ptr<layout::CancelToken> token;
};

void report(QPromise<LoadOutcome>& promise, double percent, const QString& stage) {
  promise.setProgressValueAndText(static_cast<int>(std::lround(percent)), stage);
}

void check(const LoadRequest& request) {
  if (request.token->is_cancelled()) throw layout::Cancelled();
}

layout::GraphLayout lay_out(QPromise<LoadOutcome>& promise, const LoadRequest& request,
                            const ir::ExportedProgram& program) {
  const ir::Graph& graph = program.graph();
  layout::LayoutOptions options;
  options.node_size = [&](const ir::Node& node) {
    return request.metrics.boxSize(display_label(node, program.signature));
  };
  options.cluster_label_height = request.clusterLabelHeight;
  auto on_progress = [&](double fraction, std::string_view) {
    report(promise, 20 + 70 * fraction,
           QObject::tr("Laying out %1 nodes…").arg(static_cast<qulonglong>(graph.size())));
  };
  return layout::layout_graph(graph, options, request.token.get(), on_progress);
}

// The dynamic-shapes views need this; a program it cannot handle still opens.
void prepare_shapes(LoadedProgram& loaded, const ir::ExportedProgram& program) {
  try {
    loaded.prepared = std::make_shared<const ops::PreparedProgram>(program);
  } catch (const std::exception& e) {
    loaded.prepareError = QString::fromUtf8(e.what());
  }
}

void run_load(QPromise<LoadOutcome>& promise, const LoadRequest& request) {
  LoadOutcome outcome;
  QElapsedTimer timer;
  timer.start();
  try {
    promise.setProgressRange(0, 100);
    report(promise, 2, QObject::tr("Reading %1…").arg(request.displayName));
    auto program = std::make_shared<ir::ExportedProgram>(request.reader(request.path));
    check(request);
    auto loaded = std::make_shared<LoadedProgram>();
    loaded->path = request.path;
    loaded->displayName = request.displayName;
    loaded->layout = lay_out(promise, request, *program);
    check(request);
    report(promise, 92, QObject::tr("Printing the program…"));
    loaded->printed = ir::print_program_annotated(*program);
    check(request);
    report(promise, 95, QObject::tr("Preparing symbolic shapes…"));
    prepare_shapes(*loaded, *program);
    loaded->program = std::move(program);
    loaded->seconds = timer.elapsed() / 1000.0;
    report(promise, 100, QObject::tr("Done"));
    outcome.program = std::move(loaded);
  } catch (const layout::Cancelled&) {
    outcome.cancelled = true;
  } catch (const std::exception& e) {
    outcome.error = QString::fromUtf8(e.what());
  } catch (...) {
    outcome.error = QObject::tr("unknown error");
  }
  promise.addResult(std::move(outcome));
}

}  // namespace

ProgramReader pt2_reader() {
  return [](const QString& path) {
    return serde::read_pt2(std::filesystem::path(QFile::encodeName(path).toStdString()));
  };
}

ProgramLoader::ProgramLoader(QObject* parent) : QObject(parent), reader_(pt2_reader()) {}

ProgramLoader::~ProgramLoader() {
  // Jobs only hold copies, but they must not outlive the application whose
  // fonts they measure with: cancel and wait for all, abandoned ones too.
  if (token_) token_->cancel();
  for (auto* watcher : findChildren<QFutureWatcher<LoadOutcome>*>()) watcher->waitForFinished();
}

void ProgramLoader::load(const QString& path, const QString& displayName) {
  abandonCurrent();  // replaced, not cancelled: no signal
  path_ = path;
  token_ = std::make_shared<layout::CancelToken>();
  LoadRequest request{reader_,
                      path,
                      displayName.isEmpty() ? QFileInfo(path).fileName() : displayName,
                      NodeMetrics(node_font_),
                      std::ceil(QFontMetricsF(node_font_).height()) + 4,
                      token_};
  watcher_ = new QFutureWatcher<LoadOutcome>(this);
  auto* watcher = watcher_;
  connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher](int value) {
    if (watcher == watcher_) emit progress(value, watcher->progressText());
  });
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] { finish(watcher); });
  emit started(path);
  watcher->setFuture(QtConcurrent::run(
      [request](QPromise<LoadOutcome>& promise) { run_load(promise, request); }));
}

void ProgramLoader::cancel() {
  if (!watcher_) return;
  abandonCurrent();
  emit cancelled(path_);
}

void ProgramLoader::abandonCurrent() {
  if (!watcher_) return;
  // The worker stops at its next check; its result is dropped when it ends.
  token_->cancel();
  watcher_ = nullptr;
}

bool ProgramLoader::isBusy() const { return watcher_ != nullptr; }

void ProgramLoader::finish(QFutureWatcher<LoadOutcome>* watcher) {
  watcher->deleteLater();
  if (watcher != watcher_) return;  // cancelled or replaced meanwhile
  watcher_ = nullptr;
  if (watcher->future().resultCount() == 0) {
    emit failed(path_, tr("the loading task ended without a result"));
    return;
  }
  LoadOutcome outcome = watcher->result();
  if (outcome.program) {
    emit loaded(outcome.program);
  } else if (outcome.cancelled) {
    emit cancelled(path_);
  } else {
    emit failed(path_, outcome.error);
  }
}

}  // namespace exportlens::ui

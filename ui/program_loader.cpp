#include "ui/program_loader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <filesystem>

#include "engine/layout/layout_graph.h"
#include "engine/serde/pt2_reader.h"
#include "ui/program_presentation.h"

namespace exportlens::ui {
namespace {

struct LoadRequest {
  ProgramReader reader;
  PresentationRequest presentation;
};

void report(QPromise<LoadOutcome>& promise, double percent, const QString& stage) {
  promise.setProgressValueAndText(static_cast<int>(std::lround(percent)), stage);
}

void run_load(QPromise<LoadOutcome>& promise, const LoadRequest& request) {
  LoadOutcome outcome;
  QElapsedTimer timer;
  timer.start();
  const PresentationRequest& presentation = request.presentation;
  try {
    promise.setProgressRange(0, 100);
    report(promise, 2, QObject::tr("Reading %1…").arg(presentation.displayName));
    auto program = std::make_shared<ir::ExportedProgram>(request.reader(presentation.path));
    if (presentation.token->is_cancelled()) throw layout::Cancelled();
    auto loaded = present_program(std::move(program), presentation, [&](double fraction, const QString& stage) {
      report(promise, 20 + 80 * fraction, stage);
    });
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
                      {path, displayName.isEmpty() ? QFileInfo(path).fileName() : displayName,
                       NodeMetrics(node_font_), cluster_label_height(node_font_), token_}};
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

// MainWindow's C++ models: the Examples page and menu, File › Open C++
// Model…, and tracing through the loader (trace_job.h): success shows the
// program like an opened .pt2; failure shows torch's error on the Examples
// page (examples) or in a dialog (model libraries), keeping the window as it
// was, and torch's violations with their fixes in the Violations dock.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>

#include <functional>
#include <map>
#include <utility>

#include "engine/sources/program_source.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/trace/trace_facade.h"

#include "ui/canvas/graph_view.h"
#include "ui/core/busy_overlay.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_model.h"
#include "ui/examples/examples_gallery.h"
#include "ui/examples/trace_error_view.h"
#include "ui/levels/ir_levels_ui.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/main_window.h"
#include "ui/shell/library_loading.h"

namespace exportlens::ui {
namespace {

constexpr char kModelDirKey[] = "mainWindow/lastModelDirectory";

}  // namespace

void MainWindow::createTraceActions() {
  gallery_ = new ExamplesGallery(tabs_);
  tabs_->addTab(gallery_, tr("Examples"));
  tabs_->setCurrentWidget(gallery_);  // the start page until a program opens
  connect(gallery_, &ExamplesGallery::traceRequested, this, &MainWindow::openExample);
  connect(gallery_, &ExamplesGallery::openFileRequested, this, &MainWindow::showOpenDialog);
  connect(gallery_, &ExamplesGallery::openModelRequested, this, &MainWindow::showOpenModelDialog);
  connect(gallery_, &ExamplesGallery::builtinExampleRequested, this, &MainWindow::openBuiltinExample);

  open_model_action_ = new QAction(tr("Open &C++ Model…"), this);
  open_model_action_->setObjectName(QStringLiteral("openModelAction"));
  open_model_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  open_model_action_->setToolTip(tr("Trace a model library built against the ExportLens SDK (Ctrl+Shift+O)"));
  connect(open_model_action_, &QAction::triggered, this, &MainWindow::showOpenModelDialog);

  examples_page_action_ = new QAction(tr("Examples &Gallery"), this);
  examples_page_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  connect(examples_page_action_, &QAction::triggered, this, &MainWindow::showExamplesPage);
  retrace_action_ = new QAction(tr("&Re-trace with the Dynamic Shapes Spec"), this);
  retrace_action_->setObjectName(QStringLiteral("retraceAction"));
  retrace_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  retrace_action_->setToolTip(tr("Trace the C++ model on screen again, with the spec edited in the Dynamic shapes "
                                 "dock (Ctrl+Shift+T)"));
  retrace_action_->setEnabled(false);
  connect(retrace_action_, &QAction::triggered, this, &MainWindow::retraceWithShapesSpec);
  addActions({open_model_action_, examples_page_action_, retrace_action_});

  // Connected before connectLoader(): runs ahead of onLoaded.
  connect(loader_, &ProgramLoader::loaded, this, &MainWindow::noteTraceShown);
  connect(loader_, &ProgramLoader::cancelled, this, [this] {
    if (pending_trace_ && pending_trace_->isExample()) gallery_->resultLabel()->setText(tr("Trace cancelled."));
    pending_trace_.reset();
  });
}

void MainWindow::createExamplesMenu() {
  examples_menu_ = menuBar()->addMenu(tr("E&xamples"));
  examples_menu_->setObjectName(QStringLiteral("examplesMenu"));
  examples_menu_->addAction(examples_page_action_);
  examples_menu_->addAction(retrace_action_);
  examples_menu_->addSeparator();
  std::map<std::string, QMenu*> families;
  for (const auto& e : gallery_->examples()) {
    QMenu*& family = families[e.family];
    if (!family) {
      family = examples_menu_->addMenu(QString::fromStdString(e.family));
      family->setToolTipsVisible(true);
    }
    const QString name = QString::fromStdString(e.name);
    QAction* action = family->addAction(name, this, [this, name] { openExample(name); });
    action->setToolTip(QString::fromStdString(e.description));
    action->setStatusTip(expected_outcome_text(e.expected));
  }
}

void MainWindow::showExamplesPage() { tabs_->setCurrentWidget(gallery_); }

void MainWindow::retraceWithShapesSpec() {
  if (!shown_trace_) return;
  TraceJob job = *shown_trace_;
  job.spec = QString::fromStdString(symbolic::print_dynamic_shapes(spec_session_->document()->spec()));
  if (job.isExample()) {
    gallery_->selectExample(job.example);
    gallery_->specEditor()->setPlainText(*job.spec);  // the page shows the spec the trace used
    gallery_->showTracing(job.example);
  }
  startTrace(job, false);
}

void MainWindow::openExample(const QString& name, const std::optional<QString>& spec) {
  gallery_->showTracing(name);
  startTrace(TraceJob{name, {}, {}, spec}, false);
}

void MainWindow::showOpenModelDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open C++ model library"),
                                                    settings.value(kModelDirKey).toString(),
                                                    file_filter(sources::SourceKind::ModelLibrary));
  if (path.isEmpty()) return;
  settings.setValue(kModelDirKey, QFileInfo(path).absolutePath());
  openModelLibrary(path);
}

void MainWindow::openModelLibrary(const QString& path, const QString& model) {
  if (library_approval_ && !library_approval_(path)) {
    status_label_->setText(tr("Did not load %1").arg(QFileInfo(path).fileName()));
    return;
  }
  QString chosen = model;
  if (chosen.isEmpty()) {
    status_label_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    const LibraryContents contents = load_library_off_thread(path);
    const std::vector<trace::ModelSummary>& models = contents.models;
    if (!contents.error.isEmpty()) {
      QString why = contents.error;
      if (!why.contains(path)) why = path + QStringLiteral(": ") + why;
      status_label_->setText(tr("Could not load %1").arg(QFileInfo(path).fileName()));
      show_trace_error_dialog(this, QFileInfo(path).fileName(), TraceFailure{{}, QStringLiteral("library"), why, {}, {}, 0});
      emit loadFailed(path, why);
      return;
    }
    if (models.empty()) {  // decomposition tables only (EXPORTLENS_DECOMPOSITIONS): offer them in the IR switch
      QStringList tables;
      for (const auto& t : contents.tables) tables << QString::fromStdString(t);
      ir_levels_->refreshChoices();
      status_label_->setText(tr("%1: decomposition tables %2 (IR switch)").arg(QFileInfo(path).fileName(), tables.join(", ")));
      return;
    }
    if (models.size() == 1) chosen = QString::fromStdString(models.front().name);  // named in the title
    if (models.size() > 1) {
      QStringList names;
      for (const auto& m : models) names << QString::fromStdString(m.name);
      bool ok = false;
      chosen = QInputDialog::getItem(this, tr("Open C++ model"),
                                     tr("%1 has %2 models; trace:").arg(QFileInfo(path).fileName()).arg(names.size()),
                                     names, 0, false, &ok);
      if (!ok) return;
    }
  }
  startTrace(TraceJob{{}, path, chosen, std::nullopt}, true);
}

void MainWindow::startTrace(const TraceJob& job, bool remember) {
  trace_failure_ = std::make_shared<TraceFailure>();
  // The loader copies its reader when a load starts: this one load traces.
  loader_->setReader(trace_reader(job, trace_failure_));
  open(job.sourcePath(), job.displayName(), remember);
  loader_->setReader(pt2_reader());
  pending_trace_ = job;
  overlay_->start(tr("Tracing %1").arg(job.displayName()));  // open() said "Opening"
  status_label_->setText(tr("Tracing %1…").arg(job.displayName()));
}

bool MainWindow::showTraceFailure(const QString& path, const QString& message) {
  if (!pending_trace_ || pending_trace_->sourcePath() != path) return false;
  const TraceJob job = *std::exchange(pending_trace_, std::nullopt);
  TraceFailure failure = *trace_failure_;
  if (failure.message.isEmpty()) failure.message = message;  // failed after tracing (layout, printing)
  status_label_->setText(failure.type.isEmpty() ? tr("Could not load %1").arg(job.displayName())
                                                : tr("%1 does not export: %2").arg(job.displayName(), failure.title()));
  if (job.isExample()) {
    gallery_->showFailure(job.example, failure);
    tabs_->setCurrentWidget(gallery_);
  } else {
    show_trace_error_dialog(this, job.displayName(), failure);
  }
  // The violations go to the Violations dock too: its Apply fixes re-traces
  // with torch's fixed spec, for an example through the page's own button
  // (whose spec editor then shows the spec the trace uses).
  std::function<void()> apply;
  if (!failure.fixedSpec.isEmpty() && job.isExample()) {
    apply = [this, example = job.example] {
      gallery_->selectExample(example);
      gallery_->applyFixesButton()->click();
    };
  } else if (!failure.fixedSpec.isEmpty()) {
    apply = [this, fixed = TraceJob{{}, job.library, job.model, failure.fixedSpec}] { startTrace(fixed, false); };
  }
  violations_panel_->showTraceReport(job.displayName(), failure.report, std::move(apply));
  if (failure.report) {
    violations_dock_->show();
    violations_dock_->raise();
  }
  return true;
}

void MainWindow::noteTraceShown(const LoadedProgramPtr& program) {
  shown_trace_ = std::exchange(pending_trace_, std::nullopt);
  retrace_action_->setEnabled(shown_trace_.has_value());
  if (shown_trace_ && shown_trace_->isExample())
    gallery_->showTraced(shown_trace_->example,
                         tr("Exported: %1 nodes (traced, laid out and printed in %2 s). Shown in the Graph tab.")
                             .arg(program->graph().size())
                             .arg(program->seconds, 0, 'f', 2));
  if (tabs_->currentWidget() == gallery_) tabs_->setCurrentWidget(view_);
}

}  // namespace exportlens::ui

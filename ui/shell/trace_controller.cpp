#include "ui/shell/trace_controller.h"

#include <QAction>
#include <QDockWidget>
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

#include <map>
#include <utility>

#include "engine/sources/program_source.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/trace/trace_facade.h"

#include "ui/core/busy_overlay.h"
#include "ui/core/program_loader.h"
#include "ui/examples/examples_gallery.h"
#include "ui/examples/trace_error_view.h"
#include "ui/levels/ir_levels_ui.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/library_loading.h"
#include "ui/shell/source_dialogs.h"

namespace exportlens::ui {
namespace {

constexpr char kModelDirKey[] = "mainWindow/lastModelDirectory";

QString file_name(const QString& path) { return QFileInfo(path).fileName(); }

}  // namespace

TraceController::TraceController(const TraceParts& parts) : QObject(parts.window), parts_(parts) {
  gallery_ = new ExamplesGallery(parts_.centralTabs);
  parts_.centralTabs->addTab(gallery_, tr("Examples"));
  parts_.centralTabs->setCurrentWidget(gallery_);  // the start page until a program opens
  connect(gallery_, &ExamplesGallery::traceRequested, this, &TraceController::openExample);
  connect(gallery_, &ExamplesGallery::openFileRequested, this, &TraceController::openFileRequested);
  connect(gallery_, &ExamplesGallery::openModelRequested, this, &TraceController::showOpenModelDialog);
  connect(gallery_, &ExamplesGallery::builtinExampleRequested, this, &TraceController::builtinExampleRequested);
  createActions();
  // Connected before the window's own: a trace is noted before the window shows its program.
  connect(parts_.loader, &ProgramLoader::loaded, this, &TraceController::noteShown);
  connect(parts_.loader, &ProgramLoader::cancelled, this, [this] {
    if (pending_ && pending_->isExample()) gallery_->resultLabel()->setText(tr("Trace cancelled."));
    pending_.reset();
  });
}

void TraceController::createActions() {
  QWidget* window = parts_.window;
  open_model_action_ = new QAction(tr("Open &C++ Model…"), this);
  open_model_action_->setObjectName(QStringLiteral("openModelAction"));
  open_model_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  open_model_action_->setToolTip(tr("Trace a model library built against the ExportLens SDK (Ctrl+Shift+O)"));
  connect(open_model_action_, &QAction::triggered, this, &TraceController::showOpenModelDialog);

  examples_page_action_ = new QAction(tr("Examples &Gallery"), this);
  examples_page_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  connect(examples_page_action_, &QAction::triggered, this, &TraceController::showExamplesPage);

  retrace_action_ = new QAction(tr("&Re-trace with the Dynamic Shapes Spec"), this);
  retrace_action_->setObjectName(QStringLiteral("retraceAction"));
  retrace_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  retrace_action_->setToolTip(tr("Trace the C++ model on screen again, with the spec edited in the Dynamic shapes "
                                 "dock (Ctrl+Shift+T)"));
  retrace_action_->setEnabled(false);
  connect(retrace_action_, &QAction::triggered, this, &TraceController::retraceWithShapesSpec);
  window->addActions({open_model_action_, examples_page_action_, retrace_action_});
}

QMenu* TraceController::addExamplesMenu(QMenuBar* bar) {
  QMenu* menu = examples_menu_ = bar->addMenu(tr("E&xamples"));
  menu->setObjectName(QStringLiteral("examplesMenu"));
  menu->addAction(examples_page_action_);
  menu->addAction(retrace_action_);
  menu->addSeparator();
  std::map<std::string, QMenu*> families;
  for (const auto& e : gallery_->examples()) {
    QMenu*& family = families[e.family];
    if (!family) {
      family = menu->addMenu(QString::fromStdString(e.family));
      family->setToolTipsVisible(true);
    }
    const QString name = QString::fromStdString(e.name);
    QAction* action = family->addAction(name, this, [this, name] { openExample(name); });
    action->setToolTip(QString::fromStdString(e.description));
    action->setStatusTip(expected_outcome_text(e.expected));
  }
  return menu;
}

void TraceController::showExamplesPage() { parts_.centralTabs->setCurrentWidget(gallery_); }

bool TraceController::retraceShown() {
  if (!shown_) return false;
  startTrace(*shown_, false);
  return true;
}

void TraceController::retraceWithShapesSpec() {
  if (!shown_) return;
  TraceJob job = *shown_;
  job.spec = QString::fromStdString(symbolic::print_dynamic_shapes(parts_.spec->document()->spec()));
  if (job.isExample()) {
    gallery_->selectExample(job.example);
    gallery_->specEditor()->setPlainText(*job.spec);  // the page shows the spec the trace used
    gallery_->showTracing(job.example);
  }
  startTrace(job, false);
}

void TraceController::openExample(const QString& name, const std::optional<QString>& spec) {
  gallery_->showTracing(name);
  startTrace(TraceJob{name, {}, {}, spec}, false);
}

void TraceController::showOpenModelDialog() {
  QSettings settings;
  const QString path =
      QFileDialog::getOpenFileName(parts_.window, tr("Open C++ model library"), settings.value(kModelDirKey).toString(),
                                   file_filter(sources::SourceKind::ModelLibrary));
  if (path.isEmpty()) return;
  settings.setValue(kModelDirKey, QFileInfo(path).absolutePath());
  openModelLibrary(path);
}

void TraceController::openModelLibrary(const QString& path, const QString& model) {
  if (approval_ && !approval_(path)) {
    emit statusMessage(tr("Did not load %1").arg(file_name(path)));
    return;
  }
  QString chosen = model;
  if (chosen.isEmpty()) {
    emit statusMessage(tr("Loading %1…").arg(file_name(path)));
    const LibraryContents contents = load_library_off_thread(path);
    const std::vector<trace::ModelSummary>& models = contents.models;
    if (!contents.error.isEmpty()) {
      QString why = contents.error;
      if (!why.contains(path)) why = path + QStringLiteral(": ") + why;
      emit statusMessage(tr("Could not load %1").arg(file_name(path)));
      show_trace_error_dialog(parts_.window, file_name(path), TraceFailure{{}, QStringLiteral("library"), why, {}, {}, 0});
      emit loadFailed(path, why);
      return;
    }
    if (models.empty()) {  // decomposition tables only (EXPORTLENS_DECOMPOSITIONS): offer them in the IR switch
      QStringList tables;
      for (const auto& t : contents.tables) tables << QString::fromStdString(t);
      parts_.levels->refreshChoices();
      emit statusMessage(tr("%1: decomposition tables %2 (IR switch)").arg(file_name(path), tables.join(", ")));
      return;
    }
    if (models.size() == 1) chosen = QString::fromStdString(models.front().name);  // named in the title
    if (models.size() > 1) {
      QStringList names;
      for (const auto& m : models) names << QString::fromStdString(m.name);
      bool ok = false;
      chosen = QInputDialog::getItem(parts_.window, tr("Open C++ model"),
                                     tr("%1 has %2 models; trace:").arg(file_name(path)).arg(names.size()), names, 0,
                                     false, &ok);
      if (!ok) return;
    }
  }
  startTrace(TraceJob{{}, path, chosen, std::nullopt}, true);
}

void TraceController::startTrace(const TraceJob& job, bool remember) {
  failure_ = std::make_shared<TraceFailure>();
  // The loader copies its reader when a load starts: this one load traces.
  parts_.loader->setReader(trace_reader(job, failure_));
  parts_.open(job.sourcePath(), job.displayName(), remember);
  parts_.loader->setReader(pt2_reader());
  pending_ = job;
  parts_.overlay->start(tr("Tracing %1").arg(job.displayName()));  // open() said "Opening"
  emit statusMessage(tr("Tracing %1…").arg(job.displayName()));
}

bool TraceController::showFailure(const QString& path, const QString& message) {
  if (!pending_ || pending_->sourcePath() != path) return false;
  const TraceJob job = *std::exchange(pending_, std::nullopt);
  TraceFailure failure = *failure_;
  if (failure.message.isEmpty()) failure.message = message;  // failed after tracing (layout, printing)
  emit statusMessage(failure.type.isEmpty() ? tr("Could not load %1").arg(job.displayName())
                                            : tr("%1 does not export: %2").arg(job.displayName(), failure.title()));
  if (job.isExample()) {
    gallery_->showFailure(job.example, failure);
    parts_.centralTabs->setCurrentWidget(gallery_);
  } else {
    show_trace_error_dialog(parts_.window, job.displayName(), failure);
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
  parts_.violations->showTraceReport(job.displayName(), failure.report, std::move(apply));
  if (failure.report) {
    parts_.violationsDock->show();
    parts_.violationsDock->raise();
  }
  return true;
}

void TraceController::noteShown(const LoadedProgramPtr& program) {
  shown_ = std::exchange(pending_, std::nullopt);
  retrace_action_->setEnabled(shown_.has_value());
  if (shown_ && shown_->isExample())
    gallery_->showTraced(shown_->example,
                         tr("Exported: %1 nodes (traced, laid out and printed in %2 s). Shown in the Graph tab.")
                             .arg(program->graph().size())
                             .arg(program->seconds, 0, 'f', 2));
  if (parts_.centralTabs->currentWidget() == gallery_) parts_.centralTabs->setCurrentWidget(parts_.graphTab);
}

}  // namespace exportlens::ui

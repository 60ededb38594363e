#include "ui/compiled/compiled_controller.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>

#include <utility>

#include "engine/sources/program_source.h"
#include "ui/canvas/graph_scene.h"
#include "ui/compiled/compiled_model_panel.h"
#include "ui/compiled/compiled_run_consent.h"
#include "ui/compiled/compiled_run_worker.h"
#include "ui/compiled/compiled_session.h"
#include "ui/compiled/kernel_overlay.h"
#include "ui/compiled/no_program_notice.h"
#include "ui/compiled/node_kernels_section.h"
#include "ui/compiled/program_switch.h"
#include "ui/compiled/source_viewer.h"
#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"
#include "ui/program_views/inspector_widget.h"

namespace exportlens::ui {
namespace {

constexpr char kLastDirKey[] = "mainWindow/lastDirectory";

QString file_name(const QString& path) { return QFileInfo(path).fileName(); }

bool is_archive(const QString& path) {
  return sources::match_source(QFile::encodeName(path).toStdString()) == sources::SourceKind::ExportedProgram;
}

/// One line saying how a run went: its time, the comparison's verdict, the kernels' note.
QString run_summary(const numerics::CompiledComparison& run) {
  const runtime::CompiledRunReport& c = run.compiled;
  QString text = QObject::tr("Ran %1 on %2: %3 ms (median of %4; loading %5 ms).")
                     .arg(qs(c.model), qs(c.device))
                     .arg(c.median_ms, 0, 'f', 3)
                     .arg(c.repeat)
                     .arg(c.load_ms, 0, 'f', 1);
  if (!run.compared) {
    text += QObject::tr(" Not compared: %1.").arg(qs(run.not_compared));
  } else {
    int close = 0;
    for (const numerics::OutputComparison& o : run.outputs) close += o.close() ? 1 : 0;
    text += run.all_close ? QObject::tr(" Every output is close to the program as ExportLens interprets it (%1 ms).")
                                .arg(run.interpreted_ms, 0, 'f', 3)
                          : QObject::tr(" %1 of %2 outputs close to the program as ExportLens interprets it.")
                                .arg(close)
                                .arg(run.outputs.size());
  }
  if (!c.kernels_note.empty()) text += QStringLiteral(" ") + qs(c.kernels_note);
  return text;
}

}  // namespace

CompiledController::CompiledController(const CompiledParts& parts)
    : QObject(parts.window), parts_(parts), session_(new CompiledSession(this)),
      panel_(new CompiledModelPanel(session_)), dock_(new QDockWidget(tr("Compiled model"), parts.window)),
      switch_(new ProgramSwitch(session_)), overlay_(new KernelOverlay(session_, parts.scene, parts.model, this)),
      worker_(new CompiledRunWorker(this)), notice_(new NoProgramNotice(parts.canvas)),
      link_action_(new QAction(tr("&Link Program File…"), this)),
      run_action_(new QAction(tr("Run &Compiled Model…"), this)) {
  qRegisterMetaType<SourceViewer*>();
  dock_->setObjectName(QStringLiteral("compiledModelDock"));  // saveState() needs it
  dock_->setWidget(panel_);
  link_action_->setObjectName(QStringLiteral("linkProgramAction"));
  link_action_->setStatusTip(tr("Name the .pt2 a compiled model was compiled from: its graph, with the kernels on it"));
  link_action_->setEnabled(false);
  run_action_->setObjectName(QStringLiteral("runCompiledAction"));
  run_action_->setStatusTip(tr("Load the package's shared library and run it (asks first)"));
  run_action_->setEnabled(false);
  approval_ = [this](const QString& package, const QString& model) {
    const compiled::CompiledModel* m = session_->model();
    const auto libraries = m ? m->libraries() : std::vector<const compiled::SourceFile*>{};
    return confirm_compiled_run(parts_.window, package, model, libraries.empty() ? QString() : qs(libraries.front()->entry));
  };

  connect(link_action_, &QAction::triggered, this, &CompiledController::showLinkDialog);
  connect(run_action_, &QAction::triggered, this, &CompiledController::runCompiledModel);
  connect(panel_, &CompiledModelPanel::linkRequested, this, &CompiledController::showLinkDialog);
  connect(notice_, &NoProgramNotice::linkRequested, this, &CompiledController::showLinkDialog);
  connect(panel_, &CompiledModelPanel::runRequested, this, &CompiledController::runCompiledModel);
  connect(panel_, &CompiledModelPanel::cancelRequested, worker_, &CompiledRunWorker::cancel);
  connect(panel_, &CompiledModelPanel::sourceRequested, this,
          [this](const QString& entry, int line) { openSource(entry, line); });
  connect(panel_, &CompiledModelPanel::kernelSourceRequested, this, &CompiledController::openKernelSource);
  connect(switch_, &ProgramSwitch::programChosen, this, [this](const QString& program) {
    const QString path = session_->archivePath();
    parts_.openProgram(path, program, tr("%1 › %2").arg(file_name(path), program));
  });

  connect(session_, &CompiledSession::contentsChanged, this, &CompiledController::onContents);
  connect(session_, &CompiledSession::modelChanged, this, &CompiledController::remap);
  connect(session_, &CompiledSession::readFailed, this, [this](const QString& path, const QString& message) {
    if (pending_failure_path_ == path) {
      pending_failure_path_.clear();
      parts_.showLoadError(path, pending_failure_message_);
    } else {
      status(tr("Could not list what %1 holds: %2").arg(file_name(path), message));
    }
  });
  connect(session_, &CompiledSession::kernelSelected, this, &CompiledController::onKernelSelected);
  connect(parts_.model, &ProgramModel::programChanged, this, &CompiledController::remap);
  connect(parts_.model, &ProgramModel::programOpened, this, &CompiledController::onProgramOpened);

  // The inspector lists the selected node's kernels; a link selects one or opens its source.
  parts_.inspector->addNodeSection(
      [this](const QString& node) { return node_kernels_html(*session_, node, parts_.inspector->palette()); });
  connect(session_, &CompiledSession::mappingChanged, parts_.inspector, &InspectorWidget::refresh);
  connect(session_, &CompiledSession::runChanged, parts_.inspector, &InspectorWidget::refresh);
  connect(parts_.inspector, &InspectorWidget::linkActivated, this, &CompiledController::onInspectorLink);

  connect(worker_, &CompiledRunWorker::started, panel_, [this] { panel_->setRunning(true); });
  connect(worker_, &CompiledRunWorker::progress, panel_, &CompiledModelPanel::setRunProgress);
  connect(worker_, &CompiledRunWorker::finished, this, [this](const CompiledComparisonPtr& run) {
    panel_->setRunning(false);
    session_->setRun(run);
    panel_->setRunText(run_summary(*run));
    panel_->tabs()->setCurrentIndex(CompiledModelPanel::OutputsTab);
    status(tr("Compiled model run: %1").arg(run_summary(*run)));
  });
  connect(worker_, &CompiledRunWorker::failed, this, [this](const QString& message) {
    panel_->setRunning(false);
    panel_->setRunText(tr("The compiled model did not run: %1").arg(message));
    status(tr("The compiled model did not run: %1").arg(message));
  });
  connect(worker_, &CompiledRunWorker::cancelled, this, [this] {
    panel_->setRunning(false);
    panel_->setRunText(tr("Cancelled (a run under way in LibTorch finishes in the background; its result is dropped)."));
  });
}

void CompiledController::setRunApproval(std::function<bool(const QString&, const QString&)> approval) {
  approval_ = std::move(approval);
}

void CompiledController::status(const QString& text) const {
  if (parts_.status) parts_.status(text);
}

// ---- what the archive holds ------------------------------------------------

void CompiledController::fileOpening(const QString& path, const QString& program, const QString& programFile) {
  notice_->hide();
  pending_failure_path_.clear();
  link_on_open_ = programFile;
  if (!linked_path_.isEmpty() && path == linked_path_) return;  // the linked program read again: still linked
  linked_path_.clear();
  switch_->setCurrentProgram(program);
  if (is_archive(path)) {
    session_->read(path);
  } else {
    session_->clear();
  }
  panel_->setRunText(QString());
}

void CompiledController::onContents() {
  const ArchiveContentsPtr& contents = session_->contents();
  const bool has_model = session_->model() != nullptr;
  link_action_->setEnabled(has_model);
  run_action_->setEnabled(has_model);
  if (has_model) {
    dock_->show();
    dock_->raise();
  }
  if (!pending_failure_path_.isEmpty() && contents) {
    const QString path = std::exchange(pending_failure_path_, QString());
    if (session_->compiledOnly()) {
      showCompiledOnly();
    } else {
      parts_.showLoadError(path, pending_failure_message_);
    }
  }
  remap();
}

bool CompiledController::explainsFailure(const QString& path, const QString& message) {
  if (path != session_->archivePath()) return false;
  if (session_->contents()) {
    if (!session_->compiledOnly()) return false;
    showCompiledOnly();
    return true;
  }
  if (!session_->isReading()) return false;
  pending_failure_path_ = path;  // answered when the contents are read
  pending_failure_message_ = message;
  return true;
}

void CompiledController::showCompiledOnly() {
  const QString path = session_->archivePath();
  parts_.model->setOpened(nullptr);  // no graph: the previous program goes
  if (parts_.tabs) parts_.tabs->setCurrentWidget(parts_.canvas);  // from the Examples page, say
  notice_->showFor(path, qs(session_->contents()->kind()));
  dock_->show();
  dock_->raise();
  remap();
  status(tr("%1 holds compiled code only (%2): link the program it was compiled from to see its graph.")
             .arg(file_name(path), qs(session_->contents()->kind())));
  emit compiledOnlyShown(path);
  if (!link_on_open_.isEmpty()) linkProgramFile(std::exchange(link_on_open_, QString()));
}

bool CompiledController::reloadShown() {
  const LoadedProgramPtr& opened = parts_.model->opened();
  const QString path = session_->archivePath();
  const QString program = switch_->currentProgram();
  if (opened && opened->path == path && session_->contents() && session_->contents()->programs.size() > 1 &&
      !program.isEmpty()) {
    parts_.openProgram(path, program, opened->displayName);
    return true;
  }
  return false;
}

QString CompiledController::shownArchiveName() const {
  return !parts_.model->loaded() && session_->compiledOnly() ? file_name(session_->archivePath()) : QString();
}

void CompiledController::onProgramOpened() {
  const LoadedProgramPtr& opened = parts_.model->opened();
  if (!opened) return;  // a package without its program: what it holds stays
  notice_->hide();
  const QString path = opened->path;
  if (path != session_->archivePath() && path != linked_path_) {
    // Another source (a trace, a capture): no compiled model goes with it.
    linked_path_.clear();
    session_->clear();
    link_action_->setEnabled(false);
    run_action_->setEnabled(false);
  }
  remap();
}

void CompiledController::remap() {
  const compiled::CompiledModel* m = session_->model();
  if (!m) return;
  const LoadedProgramPtr& shown = parts_.model->loaded();
  const ArchiveContentsPtr& contents = session_->contents();
  if (!shown) {
    session_->setProgram(nullptr, {},
                         session_->compiledOnly()
                             ? tr("No program to map the kernels onto: %1 holds compiled code only. Link Program "
                                  "File… names the .pt2 it was compiled from.")
                                   .arg(file_name(session_->archivePath()))
                             : QString());
    return;
  }
  const QString path = parts_.model->opened()->path;
  if (!linked_path_.isEmpty() && path == linked_path_) {
    session_->setProgram(shown->program, tr("%1 (linked)").arg(file_name(path)));
    return;
  }
  if (path != session_->archivePath()) return session_->setProgram(nullptr, {});
  const QString from = qs(contents->program_of(*m));
  const QString current = switch_->currentProgram();
  if (from.isEmpty()) {
    session_->setProgram(nullptr, {},
                         tr("The archive does not hold the program %1 was compiled from: Link Program File… names it.")
                             .arg(qs(m->name)));
  } else if (!current.isEmpty() && current != from) {
    session_->setProgram(nullptr, {},
                         tr("%1 was compiled from the program %2; program %3 is shown. Switch to %2 to see the kernels on its graph.")
                             .arg(qs(m->name), from, current));
  } else {
    session_->setProgram(shown->program, tr("%1 › %2").arg(file_name(path), from));
  }
}

void CompiledController::linkProgramFile(const QString& path) {
  if (path.isEmpty() || !session_->model()) return;
  linked_path_ = path;
  notice_->hide();
  status(tr("Opening %1 to map %2's kernels onto it…").arg(file_name(path), file_name(session_->archivePath())));
  parts_.openProgram(path, QString(), tr("%1 (linked to %2)").arg(file_name(path), file_name(session_->archivePath())));
}

void CompiledController::showLinkDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      parts_.window, tr("Link the program %1 was compiled from").arg(file_name(session_->archivePath())),
      settings.value(kLastDirKey, QFileInfo(session_->archivePath()).absolutePath()).toString(),
      tr("Exported programs (*.pt2)"));
  if (path.isEmpty()) return;
  settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
  linkProgramFile(path);
}

// ---- kernels on the graph -----------------------------------------------------

void CompiledController::onKernelSelected(int kernel) {
  const compiled::CompiledModel* m = session_->model();
  if (!m || kernel < 0) return;
  const QString name = qs(m->kernels[kernel].name);
  const QStringList nodes = session_->nodesOf(kernel);
  if (!session_->hasMapping()) {
    status(tr("%1: %2").arg(name, session_->mappingText()));
  } else if (nodes.isEmpty()) {
    status(tr("%1 computes no node of %2.").arg(name, session_->programOrigin()));
  } else {
    parts_.scene->revealNodes(nodes);
    status(tr("%1 computes %n node(s): %2", nullptr, int(nodes.size())).arg(name, nodes.join(QStringLiteral(", "))));
  }
}

void CompiledController::onInspectorLink(const QUrl& url) {
  bool source = false;
  const int kernel = kernel_of_link(url, &source);
  if (kernel < 0) return;
  if (source) return openKernelSource(kernel, url.scheme() == QLatin1String(kKernelLaunchLinkScheme));
  dock_->show();
  dock_->raise();
  panel_->tabs()->setCurrentIndex(CompiledModelPanel::KernelsTab);
  session_->selectKernel(kernel);
}

// ---- sources -------------------------------------------------------------------

SourceViewer* CompiledController::sourceViewer() const { return static_cast<SourceViewer*>(viewer_.data()); }

void CompiledController::openSource(const QString& entry, int line) {
  if (entry.isEmpty() || session_->archivePath().isEmpty()) return;
  SourceViewer* viewer = viewer_ ? sourceViewer() : new SourceViewer(parts_.window);
  viewer_ = viewer;
  viewer->open(session_->archivePath(), entry, line);
  viewer->show();
  viewer->raise();
  emit sourceViewerOpened(viewer);
}

void CompiledController::openKernelSource(int kernel, bool atLaunch) {
  const compiled::CompiledModel* m = session_->model();
  if (!m || kernel < 0 || kernel >= int(m->kernels.size())) return;
  const compiled::Kernel& k = m->kernels[kernel];
  if (!atLaunch && !k.defined_in.empty()) return openSource(qs(k.defined_in), k.definition_line);
  if (!k.wrapper_entry.empty()) return openSource(qs(k.wrapper_entry), k.wrapper_line);
  status(tr("%1: the reader found no source for it.").arg(qs(k.name)));
}

// ---- running -------------------------------------------------------------------

void CompiledController::runCompiledModel() {
  const compiled::CompiledModel* m = session_->model();
  if (!m || worker_->isBusy()) return;
  const QString package = session_->archivePath();
  const QString inputs = panel_->inputsFile();
  if (inputs.isEmpty() && !session_->program()) {
    panel_->setRunText(tr("Random inputs are made from the program's signature: link the program, or choose an inputs file."));
    return;
  }
  // The package's code runs in this process: ask first, every time. No: nothing is loaded.
  if (!approval_ || !approval_(package, qs(m->name))) {
    panel_->setRunText(tr("Not run: the compiled model's code was not loaded."));
    emit runDeclined();
    return;
  }
  numerics::CompiledComparisonRequest request;
  runtime::CompiledRunRequest& run = request.run;
  run.package = QFile::encodeName(package).toStdString();
  run.model = m->name;
  run.consent = true;
  run.program = session_->program();
  if (inputs.isEmpty()) {
    run.random_inputs = true;
  } else {
    run.inputs_file = QFile::encodeName(inputs).toStdString();
  }
  run.device = m->device.empty() ? "cpu" : m->device;
  run.warmup = 1;
  run.repeat = 5;
  run.profile_kernels = true;
  for (const compiled::Kernel& k : m->kernels) run.kernel_names.push_back(k.name);
  dock_->show();
  dock_->raise();
  panel_->setRunText(tr("Running %1 on %2…").arg(qs(m->name), qs(run.device)));
  worker_->start(std::move(request));
}

}  // namespace exportlens::ui

#include "ui/capture/capture_controller.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

#include "engine/capture/capture_runner.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "ui/capture/capture_dialog.h"
#include "ui/capture/capture_panel.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"
#include "ui/diagnostics/attempt_view.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"

namespace exportlens::ui {
namespace {

std::filesystem::path path_of(const QString& text) { return QFile::encodeName(text).toStdString(); }

// What reads an attempt's program: the capture through engine/sources, the attempt picked.
ProgramReader attempt_reader(const QString& program) {
  return [program](const QString& path) {
    sources::OpenRequest request;
    request.read = runtime::pt2_read_options();
    request.read.load_weights = false;
    request.program = program.toStdString();
    return sources::open_program(QFile::encodeName(path).toStdString(), request);
  };
}

// Which call of its call site an attempt is (1 for the first): what a re-run's override names.
int occurrence_of(const capture::Capture& c, const capture::Attempt& attempt) {
  int n = 0;
  for (const capture::Attempt& a : c.attempts) {
    if (a.call_site.file == attempt.call_site.file && a.call_site.line == attempt.call_site.line) ++n;
    if (a.index == attempt.index) break;
  }
  return std::max(n, 1);
}

capture::CaptureRequest request_of(const capture::Capture& c) {
  capture::CaptureRequest r;
  r.script = c.script;
  r.script_args.assign(c.argv.size() > 1 ? c.argv.begin() + 1 : c.argv.end(), c.argv.end());
  r.python = c.python_executable;
  return r;
}

}  // namespace

CaptureController::CaptureController(const CaptureParts& parts)
    : QObject(parts.window), parts_(parts), session_(new CaptureSession(this)) {
  panel_ = new CapturePanel(session_, parts.window);
  dock_ = new QDockWidget(tr("Export attempts"), parts.window);
  dock_->setObjectName(QStringLiteral("captureDock"));
  dock_->setWidget(panel_);
  parts.window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();  // until a capture is opened

  capture_action_ = new QAction(tr("&Capture Python Export…"), this);
  capture_action_->setObjectName(QStringLiteral("captureAction"));
  capture_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  capture_action_->setToolTip(tr("Run a Python script and explain every torch.export call it makes, failed or not"));
  connect(capture_action_, &QAction::triggered, this, [this] {
    dialog()->show();
    dialog()->raise();
  });
  open_folder_action_ = new QAction(tr("Open Capture or Trace &Log Folder…"), this);
  connect(open_folder_action_, &QAction::triggered, this, [this] {
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(parts_.window, tr("Open a capture folder or a TORCH_TRACE folder"),
                                                          settings.value(QStringLiteral("capture/lastFolder")).toString());
    if (dir.isEmpty()) return;
    settings.setValue(QStringLiteral("capture/lastFolder"), dir);
    open(dir);
  });

  connect(session_, &CaptureSession::currentChanged, this, &CaptureController::showRow);
  connect(session_, &CaptureSession::failed, this, [this](const QString& path, const QString& message) {
    parts_.status(tr("Could not read %1: %2").arg(QFileInfo(path).fileName(), message));
  });
  connect(panel_, &CapturePanel::rerunRequested, this, &CaptureController::rerun);
  connect(panel_, &CapturePanel::draftRequested, this, &CaptureController::captureWithDraft);
  connect(panel_->attemptView(), &AttemptView::applyFixesRequested, this, [this](const QString& fixes) {
    const QString why = parts_.spec->applyFixes(fixes);
    parts_.status(why.isEmpty() ? tr("Applied torch's suggested fixes to the spec") : tr("Not applied: %1").arg(why));
    if (why.isEmpty()) emit specChanged();
  });
  panel_->attemptView()->follow(parts_.model);
  // Queued: after every view (and the spec session, which resets to the
  // program's recorded spec) has taken the new program.
  connect(parts_.model, &ProgramModel::programOpened, this, &CaptureController::onProgramOpened, Qt::QueuedConnection);
}

CaptureDialog* CaptureController::dialog() {
  if (!dialog_) {
    dialog_ = new CaptureDialog(parts_.window);
    connect(dialog_, &CaptureDialog::captured, this, [this](const QString& folder, int) {
      if (rerun_of_ >= 0) {
        session_->addRerun(folder, rerun_of_);
        rerun_of_ = -1;
      } else {
        open(folder, reopen_attempt_);
        reopen_attempt_ = 0;
      }
    });
  }
  return dialog_;
}

void CaptureController::open(const QString& path, int attempt) {
  dock_->show();
  dock_->raise();
  emit opening();
  parts_.status(tr("Reading %1…").arg(QFileInfo(path).fileName()));
  session_->open(path, attempt);
}

void CaptureController::showRow(int row) {
  const AttemptRow* r = row >= 0 && row < session_->rows().size() ? &session_->rows()[row] : nullptr;
  if (!r) {
    panel_->attemptView()->clear();
    return;
  }
  panel_->attemptView()->show(r->attempt, r->diagnosis,
                              r->programKind.isEmpty() ? tr("none: %1").arg(r->noProgram) : r->programKind);
  if (r->programKind.isEmpty()) {
    pending_row_ = -1;
    parts_.model->setOpened(nullptr);  // the previous attempt's graph is not this one's
    parts_.status(tr("Attempt %1 left no program: %2").arg(r->attempt->index).arg(r->noProgram));
    return;
  }
  pending_row_ = row;
  const QString script = r->capture ? QFileInfo(qs(r->capture->script)).fileName() : QFileInfo(r->source).fileName();
  const QString name = r->capture ? tr("%1 — attempt %2").arg(script).arg(r->attempt->index) : script;
  // The loader reads through a reader of its own per load; put the .pt2 one back after.
  parts_.loader->setReader(attempt_reader(r->program));
  parts_.loader->load(r->source, name);
  parts_.loader->setReader(pt2_reader());
}

void CaptureController::onProgramOpened() {
  const LoadedProgramPtr& loaded = parts_.model->opened();
  if (pending_row_ < 0 || pending_row_ >= session_->rows().size() || !loaded) return;
  const AttemptRow& r = session_->rows()[pending_row_];
  if (loaded->path != r.source) {
    pending_row_ = -1;  // something else was opened meanwhile
    return;
  }
  // Guards and nodes made by the same user line select each other.
  auto linked = std::make_shared<capture::AttemptDiagnosis>(*r.diagnosis);
  capture::link_graph(*linked, loaded->graph());
  panel_->attemptView()->show(r.attempt, linked, r.programKind);
  // The attempt's own spec is the one to edit and re-solve against its program.
  if (!r.attempt->spec_text.empty()) {
    try {
      parts_.spec->resetSpec(symbolic::parse_dynamic_shapes(r.attempt->spec_text));
      emit specChanged();
    } catch (const std::exception& e) {
      parts_.status(tr("The attempt's spec is not one ExportLens reads yet (%1); the program's own is shown")
                        .arg(QString::fromUtf8(e.what())));
    }
  }
}

void CaptureController::rerun(int row) {
  if (row < 0 || row >= session_->rows().size() || !session_->rows()[row].capture) return;
  const AttemptRow& r = session_->rows()[row];
  const capture::Capture& c = *r.capture;
  // Each re-run gets its own folder inside the capture (its attempts' files stay inside it).
  const QString root = QFile::decodeName(c.dir.string().c_str()) + QStringLiteral("/reruns");
  QDir().mkpath(root);
  int n = 1;
  while (QFileInfo::exists(root + QStringLiteral("/rerun-%1").arg(n))) ++n;
  const QString folder = root + QStringLiteral("/rerun-%1").arg(n);
  const QString override_file = root + QStringLiteral("/rerun-%1.spec.json").arg(n);
  const std::string spec = symbolic::print_dynamic_shapes(parts_.spec->document()->spec());
  try {
    capture::write_spec_override(path_of(override_file), {{r.attempt->call_site, occurrence_of(c, *r.attempt), spec}});
  } catch (const std::exception& e) {
    parts_.status(tr("Could not re-run: %1").arg(QString::fromUtf8(e.what())));
    return;
  }
  capture::CaptureRequest request = request_of(c);
  request.output_dir = path_of(folder);
  request.spec_override = path_of(override_file);
  request.draft = true;
  rerun_of_ = row;
  dialog()->setRequest(request);
  dialog()->show();
  dialog()->start();
}

void CaptureController::captureWithDraft() {
  const AttemptRow* r = session_->currentRow();
  if (!r || !r->capture) return;
  capture::CaptureRequest request = request_of(*r->capture);
  request.output_dir = r->capture->dir;
  request.draft = true;
  reopen_attempt_ = r->attempt->index;
  rerun_of_ = -1;
  dialog()->setRequest(request);
  dialog()->show();
  dialog()->start();
}

}  // namespace exportlens::ui

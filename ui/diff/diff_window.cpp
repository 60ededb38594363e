#include "ui/diff/diff_window.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_presentation.h"
#include "ui/diff/changes_panel.h"
#include "ui/diff/diff_marks.h"
#include "ui/structure/canvas_stacks.h"

namespace exportlens::ui {
namespace {

using Side = SideBySideView::Side;

QString caption(const char* letter, const LoadedProgramPtr& p) {
  return QStringLiteral("<b>%1</b>: %2 · ").arg(QString::fromLatin1(letter), p->displayName.toHtmlEscaped()) +
         QObject::tr("%n node(s)", nullptr, int(p->graph().size()));
}

}  // namespace

DiffWindow::DiffWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("diffWindow"));
  setAttribute(Qt::WA_DeleteOnClose);
  view_ = new SideBySideView(this);
  view_->setObjectName(QStringLiteral("diffView"));
  setCentralWidget(view_);
  for (Side side : {Side::Left, Side::Right}) marks_[side] = new DiffMarks(view_->scene(side), side, this);
  changes_ = new ChangesPanel(this);
  auto* dock = new QDockWidget(tr("Changes"), this);
  dock->setObjectName(QStringLiteral("changesDock"));
  dock->setWidget(changes_);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  resizeDocks({dock}, {460}, Qt::Horizontal);
  status_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(220);
  cancel_ = new QToolButton(this);
  cancel_->setText(tr("Cancel"));
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  progress_->hide();
  cancel_->hide();
  connect(cancel_, &QToolButton::clicked, this, &DiffWindow::cancel);
  jobs_.onProgress([this](int percent, const QString& stage) {
    progress_->setValue(percent);
    status_->setText(stage);
  });

  // Selection through the matches, both ways; the dock follows.
  view_->setRelation([this](Side from, const QString& node) {
    const QString other = snapshot_ ? snapshot_->counterpart(from, node) : QString();
    return other.isEmpty() ? QStringList() : QStringList{other};
  });
  connect(view_, &SideBySideView::nodePicked, changes_, &ChangesPanel::showNode);
  // A node without a match selects nothing in the other pane, which shows where it would be instead.
  connect(view_, &SideBySideView::nodePicked, this, [this](Side side, const QString& node) {
    if (!snapshot_ || node.isEmpty() || !snapshot_->counterpart(side, node).isEmpty()) return;
    const QString near = snapshot_->nearest_counterpart(side, node);
    GraphScene* other = view_->scene(SideBySideView::other(side));
    if (!near.isEmpty()) other->revealScope(other->moduleOf(near));
  });
  connect(changes_, &ChangesPanel::nodeActivated, this, [this](const QString& left, const QString& right) {
    if (!left.isEmpty()) view_->selectNode(Side::Left, left);
    else view_->selectNode(Side::Right, right);
  });
  connect(changes_, &ChangesPanel::scopeActivated, this, [this](int left, int right) {
    if (left >= 0) view_->scene(Side::Left)->revealScope(left);
    if (right >= 0) view_->scene(Side::Right)->revealScope(right);
  });
  resize(parent ? parent->size() * 0.9 : QSize(1500, 900));
}

DiffWindow::~DiffWindow() = default;

void DiffWindow::compareWithFile(const LoadedProgramPtr& left, const QString& rightPath) {
  setWindowTitle(tr("Compare %1 with %2").arg(left->displayName, QFileInfo(rightPath).fileName()));
  const PresentationRequest request{rightPath, QFileInfo(rightPath).fileName(), NodeMetrics(font()),
                                    cluster_label_height(font()), nullptr};
  start(left, [reader = pt2_reader(), request](const JobContext& context) {
    context.progress(2, QObject::tr("Reading %1…").arg(request.displayName));
    auto program = std::make_shared<ir::ExportedProgram>(reader(request.path));
    context.checkCancelled();
    PresentationRequest cancellable = request;
    cancellable.token = context.token();
    return LoadedProgramPtr(present_program(std::move(program), cancellable, [&](double fraction, const QString& stage) {
      context.progress(10 + 50 * fraction, stage);
    }));
  });
}

void DiffWindow::compare(const LoadedProgramPtr& left, const LoadedProgramPtr& right) {
  setWindowTitle(tr("Compare %1 with %2").arg(left->displayName, right->displayName));
  start(left, [right](const JobContext&) { return right; });
}

void DiffWindow::start(const LoadedProgramPtr& left, std::function<LoadedProgramPtr(const JobContext&)> right) {
  jobs_.dropAll();
  snapshot_.reset();
  view_->showProgram(Side::Left, left);
  view_->setCaption(Side::Left, caption("A", left));
  view_->setCaption(Side::Right, tr("<b>B</b>: comparing…"));
  for (DiffMarks* m : marks_) m->setSnapshot(nullptr);
  changes_->setSnapshot(nullptr);
  progress_->setValue(0);
  progress_->show();
  cancel_->show();
  jobs_.start(
      [left, right = std::move(right)](JobContext& context, DiffSnapshotPtr& out) {
        const LoadedProgramPtr b = right(context);
        context.progress(60, QObject::tr("Matching and comparing…"));
        out = make_diff_snapshot(left, b, context.token().get());
        context.progress(100, QObject::tr("Done"));
      },
      [this](JobOutcome<DiffSnapshotPtr>& outcome) {
        progress_->hide();
        cancel_->hide();
        if (outcome.ok() && outcome.value) {
          showDiff(outcome.value);
          status_->setText(tr("Compared in %1 s").arg(outcome.seconds, 0, 'f', 2));
          emit diffReady();
        } else if (outcome.cancelled) {
          status_->setText(tr("Cancelled"));
        } else {
          status_->setText(tr("Failed: %1").arg(outcome.error));
          view_->setCaption(Side::Right, tr("<b>B</b>: failed"));
          emit failed(outcome.error);
        }
      });
}

void DiffWindow::cancel() {
  if (!jobs_.dropAll()) return;
  progress_->hide();
  cancel_->hide();
  status_->setText(tr("Cancelled"));
  view_->setCaption(Side::Right, tr("<b>B</b>: cancelled"));
}

void DiffWindow::showDiff(const DiffSnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  view_->showProgram(Side::Right, snapshot->b);
  view_->setCaption(Side::Right, caption("B", snapshot->b));
  for (Side side : {Side::Left, Side::Right}) {
    marks_[side]->setSnapshot(snapshot);
    const auto& stacks = side == Side::Left ? snapshot->stacks_a : snapshot->stacks_b;
    auto runs = stack_runs(*stacks);
    if (!runs.empty()) view_->scene(side)->setFoldedRuns(std::move(runs));
  }
  changes_->setSnapshot(snapshot);
  changes_->showFirstChange();  // selects it in both panes: the canvases open on it
}

}  // namespace exportlens::ui

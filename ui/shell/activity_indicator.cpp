#include "ui/shell/activity_indicator.h"

#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

#include "ui/core/program_loader.h"
#include "ui/run/run_worker.h"

namespace exportlens::ui {

ActivityIndicator::ActivityIndicator(QStatusBar* bar, ProgramLoader* loader, RunWorker* runs)
    : QObject(bar), loader_(loader), runs_(runs), progress_(new QProgressBar(bar)), cancel_(new QToolButton(bar)) {
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(180);
  progress_->setMaximumHeight(16);
  progress_->setTextVisible(false);
  progress_->hide();
  bar->addPermanentWidget(progress_);
  cancel_->setIcon(bar->style()->standardIcon(QStyle::SP_DialogCancelButton));
  cancel_->setToolTip(tr("Cancel"));
  cancel_->setAutoRaise(true);
  cancel_->hide();
  bar->addPermanentWidget(cancel_);
  // Opening a program comes first: a run's progress waits while one opens.
  connect(cancel_, &QToolButton::clicked, this, [this] {
    if (loader_->isBusy()) {
      loader_->cancel();
    } else {
      runs_->cancel();
    }
  });
  connect(loader_, &ProgramLoader::started, this, &ActivityIndicator::begin);
  connect(loader_, &ProgramLoader::progress, this, &ActivityIndicator::setProgress);
  connect(loader_, &ProgramLoader::loaded, this, &ActivityIndicator::end);
  connect(loader_, &ProgramLoader::failed, this, &ActivityIndicator::end);
  connect(loader_, &ProgramLoader::cancelled, this, &ActivityIndicator::end);

  connect(runs_, &RunWorker::started, this, [this](const RunSettings& settings) {
    begin();
    emit message(tr("Running on %1…").arg(device_display_name(settings.device)));
  });
  connect(runs_, &RunWorker::progress, this, [this](int percent) {
    if (!loader_->isBusy()) setProgress(percent);
  });
  connect(runs_, &RunWorker::finished, this, [this](const RunOutcome& outcome) {
    if (!loader_->isBusy()) end();
    if (outcome.succeeded()) {
      emit message(tr("Ran on %1 in %2 ms")
                       .arg(device_display_name(QString::fromStdString(outcome.report->device)))
                       .arg(outcome.report->total_ms, 0, 'f', 3));
    } else {
      emit message(tr("Run failed: %1").arg(outcome.error.simplified()));  // one line: the op / input too
    }
  });
  connect(runs_, &RunWorker::cancelled, this, [this] {
    if (!loader_->isBusy()) end();
    emit message(tr("Run cancelled"));
  });
}

void ActivityIndicator::begin() {
  progress_->setValue(0);
  progress_->show();
  cancel_->show();
}

void ActivityIndicator::setProgress(int percent) { progress_->setValue(percent); }

void ActivityIndicator::end() {
  progress_->hide();
  cancel_->hide();
}

}  // namespace exportlens::ui

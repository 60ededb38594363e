#include "ui/compiled/kernel_overlay.h"

#include <QAction>

#include <algorithm>

#include "ui/canvas/graph_scene.h"
#include "ui/compiled/compiled_session.h"
#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

KernelOverlay::KernelOverlay(CompiledSession* session, GraphScene* scene, ProgramModel* model, QObject* parent)
    : QObject(parent), session_(session), scene_(scene), model_(model), action_(new QAction(tr("&Kernels on the Graph"), this)) {
  action_->setObjectName(QStringLiteral("kernelsOnGraphAction"));
  action_->setCheckable(true);
  action_->setChecked(true);
  action_->setStatusTip(tr("Tint the nodes a compiled model's kernels compute (by kernel time after a run)"));
  connect(action_, &QAction::toggled, this, &KernelOverlay::apply);
  connect(session_, &CompiledSession::mappingChanged, this, &KernelOverlay::apply);
  connect(session_, &CompiledSession::runChanged, this, &KernelOverlay::apply);
  // The canvas repaints the program's run times after a program or a run of it: painted again after it.
  connect(model_, &ProgramModel::runFinished, this, [this] {
    if (action_->isChecked() && !fractions_.isEmpty()) apply();
  });
}

void KernelOverlay::apply() {
  fractions_.clear();
  labels_.clear();
  milliseconds_.clear();
  const compiled::CompiledModel* m = session_->model();
  if (m && session_->hasMapping()) {
    const QHash<int, double> kernel_ms = session_->kernelMilliseconds();
    QHash<QString, QStringList> lines;
    for (int k = 0; k < int(m->kernels.size()); ++k) {
      const auto ms = kernel_ms.constFind(k);
      const QString line = ms == kernel_ms.constEnd()
                               ? (session_->run() ? tr("kernel %1: not timed by the profiler")
                                                  : tr("kernel %1"))
                                     .arg(qs(m->kernels[k].name))
                               : tr("kernel %1: %2 ms").arg(qs(m->kernels[k].name)).arg(*ms, 0, 'f', 4);
      for (const QString& node : session_->nodesOf(k)) {
        lines[node] << line;
        if (ms != kernel_ms.constEnd()) milliseconds_[node] += *ms;
      }
    }
    double slowest = 0;
    for (double ms : std::as_const(milliseconds_)) slowest = std::max(slowest, ms);
    for (auto it = lines.cbegin(); it != lines.cend(); ++it) {
      const auto ms = milliseconds_.constFind(it.key());
      fractions_[it.key()] = ms != milliseconds_.constEnd() && slowest > 0 ? std::max(0.02, *ms / slowest)
                             : session_->run()                           ? kUntimedTint
                                                                         : kMappedTint;
      labels_[it.key()] = it.value().join(QLatin1Char('\n'));
    }
  }
  if (scene_) {
    if (action_->isChecked() && !fractions_.isEmpty()) {
      QHash<QString, qreal> fractions;
      for (auto it = fractions_.cbegin(); it != fractions_.cend(); ++it) fractions.insert(it.key(), it.value());
      scene_->setNodeHeat(fractions, labels_, GraphScene::HeatSummary::Share);
      painted_ = true;
    } else if (painted_) {
      scene_->setRunTimes(model_->runTimes());  // the program's own run times again
      painted_ = false;
    }
  }
  emit changed();
}

}  // namespace exportlens::ui

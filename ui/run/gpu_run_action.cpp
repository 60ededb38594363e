#include "ui/run/gpu_run_action.h"

#include "engine/runtime/program_runner.h"
#include "ui/core/program_model.h"
#include "ui/run/run_worker.h"

namespace exportlens::ui {

GpuRunAction::GpuRunAction(QObject* parent) : QAction(QStringLiteral("▶ ") + tr("Run on GPU"), parent) {
  setObjectName(QStringLiteral("gpuRunAction"));
  setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  refresh();
}

void GpuRunAction::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { update(model->loaded() != nullptr); });
  update(model->loaded() != nullptr);
}

void GpuRunAction::refresh() {
  why_.clear();
  fix_.clear();
  available_ = RunWorker::deviceAvailable(QStringLiteral("cuda"), &why_, &fix_);
  update(has_program_);
}

void GpuRunAction::update(bool has_program) {
  has_program_ = has_program;
  setEnabled(available_ && has_program_);
  if (!available_) {
    setToolTip(tr("<p style=\"white-space:pre\"><b>Run on GPU is unavailable:</b> %1.<br>To fix: <code>%2</code></p>")
                   .arg(why_.toHtmlEscaped(), fix_.toHtmlEscaped()));
    return;
  }
  std::string ignored;
  const auto devices = runtime::list_devices(&ignored);
  const QString name = devices.empty() ? QStringLiteral("cuda") : QString::fromStdString(devices.front().str());
  setToolTip(tr("Run the program on the GPU (%1): per-node GPU times (CUDA events), each node's kernels, device "
                "memory, the CUDA-graph replay, and the outputs compared with the CPU (Ctrl+Shift+R)")
                 .arg(name.toHtmlEscaped()));
}

}  // namespace exportlens::ui

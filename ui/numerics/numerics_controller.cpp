#include "ui/numerics/numerics_controller.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

#include "ui/core/program_model.h"
#include "ui/numerics/numerics_overlay.h"
#include "ui/numerics/numerics_panel.h"
#include "ui/numerics/numerics_worker.h"
#include "ui/numerics/tensor_viewer.h"

namespace exportlens::ui {

NumericsController::NumericsController(const NumericsParts& parts)
    : QObject(parts.window), parts_(parts), worker_(new NumericsWorker(this)),
      overlay_(new NumericsOverlay(parts.scene, this)), panel_(new NumericsPanel(worker_, overlay_)),
      dock_(new QDockWidget(tr("Numerics"), parts.window)),
      values_action_(new QAction(tr("Tensor &Values of Selected Node"), this)) {
  qRegisterMetaType<TensorViewer*>();  // viewerOpened's argument, queued or spied
  dock_->setObjectName(QStringLiteral("numericsDock"));  // saveState() needs it
  dock_->setWidget(panel_);
  values_action_->setShortcut(QKeySequence(tr("Ctrl+Shift+V")));
  values_action_->setStatusTip(tr("The selected node's values: a weight's as stored, a computed value in A and B"));
  values_action_->setEnabled(false);
  ProgramModel* model = parts_.model;
  auto follow = [this, model] { panel_->setProgram(model->loaded()); };
  connect(model, &ProgramModel::programChanged, this, follow);
  connect(model, &ProgramModel::selectionChanged, this,
          [this](const QString& name) { values_action_->setEnabled(!name.isEmpty()); });
  connect(values_action_, &QAction::triggered, this, [this, model] { showValues(model->selectedName()); });
  // A click in the dock selects the node and shows its values in the viewer.
  connect(panel_, &NumericsPanel::nodeActivated, model, [this, model](const QString& node) {
    if (node.isEmpty()) return;
    model->selectNode(node);
    showValues(node);
  });
  connect(panel_, &NumericsPanel::statusMessage, this, [this](const QString& text) {
    if (parts_.status) parts_.status(text);
  });
  connect(worker_, &NumericsWorker::valuesReady, this, &NumericsController::onValues);
  panel_->setRunTimesSource([model] { return model->runTimes(); });
}

TensorViewer* NumericsController::lastViewer() const { return last_viewer_; }

void NumericsController::showValues(const QString& node) {
  if (node.isEmpty() || !parts_.model->loaded()) return;
  if (parts_.status) parts_.status(tr("Reading the values of %1…").arg(node));
  worker_->requestValues(parts_.model->loaded(), panel_->settings(), node);
}

void NumericsController::onValues(const TensorValues& values) {
  if (!values.error.isEmpty()) {
    if (parts_.status) parts_.status(tr("Values of %1: %2").arg(values.node, values.error));
    return;
  }
  // One viewer follows the nodes picked; a closed one is opened again.
  TensorViewer* viewer = last_viewer_ ? last_viewer_.data() : new TensorViewer(parts_.window);
  const NumericsSettings s = panel_->settings();
  viewer->setValues(values.title, values.pair, values.single, tr("as exported on cpu"),
                    tr("%1 on %2").arg(NumericsSettings::wayTitle(s.way), s.device));
  viewer->show();
  viewer->raise();
  last_viewer_ = viewer;
  if (parts_.status) parts_.status(tr("Values of %1").arg(values.node));
  emit viewerOpened(viewer);
}

}  // namespace exportlens::ui

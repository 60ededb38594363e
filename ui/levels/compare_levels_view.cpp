#include "ui/levels/compare_levels_view.h"

#include <QComboBox>

#include "ui/levels/ir_level_controller.h"
#include "ui/levels/level_box.h"
#include "ui/levels/level_relation.h"

namespace exportlens::ui {

CompareLevelsView::CompareLevelsView(IrLevelController* controller, QWidget* parent)
    : SideBySideView(parent), controller_(controller) {
  for (Side side : {Left, Right}) {
    boxes_[side] = new QComboBox(this);
    boxes_[side]->setObjectName(side == Left ? QStringLiteral("compareLeftLevel") : QStringLiteral("compareRightLevel"));
    addHeaderWidget(side, boxes_[side]);
    connect(boxes_[side], &QComboBox::currentIndexChanged, this, [this] {
      if (isVisible()) refresh();
    });
  }
  fillBoxes();
  boxes_[Right]->setCurrentIndex(boxes_[Right]->findData(LevelChoice::core().key()));
  connect(controller_, &IrLevelController::levelsChanged, this, &CompareLevelsView::showPrograms);
  setRelation([this](Side from, const QString& name) {
    const ir::Node* node = program(from)->graph().find(name.toStdString());
    return related_nodes(*node, level(from), *program(other(from))->program, level(other(from)));
  });
}

void CompareLevelsView::fillBoxes() {
  for (QComboBox* box : boxes_) {
    const QString keep = box->currentData().toString();
    const QSignalBlocker quiet(box);
    fill_level_box(*box, controller_->choices());
    const int index = box->findData(keep);
    box->setCurrentIndex(index >= 0 ? index : 0);
  }
}

LevelChoice CompareLevelsView::level(Side side) const {
  const QString key = boxes_[side]->currentData().toString();
  for (const LevelChoice& choice : controller_->choices())
    if (choice.key() == key) return choice;
  return controller_->opened();
}

void CompareLevelsView::setLevel(Side side, const LevelChoice& level) {
  const int index = boxes_[side]->findData(level.key());
  if (index >= 0) boxes_[side]->setCurrentIndex(index);
  refresh();
}

void CompareLevelsView::showEvent(QShowEvent* event) {
  SideBySideView::showEvent(event);
  refresh();
}

void CompareLevelsView::refresh() {
  if (!lists_levels(*boxes_[Left], controller_->choices())) fillBoxes();
  controller_->prepare({level(Left), level(Right)}, true);
  showPrograms();
}

void CompareLevelsView::showPrograms() {
  for (Side side : {Left, Right}) {
    const LevelChoice choice = level(side);
    const LoadedProgramPtr shown = controller_->shown(choice);
    const QString error = controller_->error(choice);
    setCaption(side, shown              ? tr("%n node(s)", nullptr, int(shown->graph().size()))
                     : !error.isEmpty() ? tr("failed: %1").arg(error)
                                        : tr("lowering…"));
    showProgram(side, shown);
  }
}

}  // namespace exportlens::ui

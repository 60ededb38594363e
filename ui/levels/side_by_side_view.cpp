#include "ui/levels/side_by_side_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/levels/ir_level_controller.h"
#include "ui/levels/level_box.h"
#include "ui/levels/level_relation.h"

namespace exportlens::ui {

SideBySideView::SideBySideView(IrLevelController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(makePane(Left));
  splitter->addWidget(makePane(Right));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
  if (!controller_) {
    for (Pane& pane : panes_) pane.box->hide();
    return;
  }
  fillBoxes();
  panes_[Right].box->setCurrentIndex(panes_[Right].box->findData(LevelChoice::core().key()));
  connect(controller_, &IrLevelController::levelsChanged, this, &SideBySideView::showPrograms);
}

void SideBySideView::showPair(const LoadedProgramPtr& program, std::array<std::vector<int>, 2> scopes,
                              std::array<QString, 2> captions, Relation relate) {
  relate_ = std::move(relate);
  for (int side = 0; side < 2; ++side) {
    Pane& pane = panes_[side];
    pane.caption->setText(captions[side]);
    pane.shown = program;
    pane.scene->setProgram(program);
    pane.scene->collapseAll();  // the instance open, the rest as boxes around it
    for (int scope : scopes[side]) {
      pane.scene->revealScope(scope);
      pane.scene->setExpanded(scope, true);
    }
  }
}

QWidget* SideBySideView::makePane(Side side) {
  Pane& pane = panes_[side];
  auto* widget = new QWidget(this);
  pane.box = new QComboBox(widget);
  pane.box->setObjectName(side == Left ? QStringLiteral("compareLeftLevel") : QStringLiteral("compareRightLevel"));
  pane.caption = new QLabel(widget);
  pane.scene = new GraphScene(this);
  pane.view = new GraphView(widget);
  pane.view->setScene(pane.scene);
  pane.view->watch(pane.scene);  // reveals, the overview, the module path
  auto* top = new QHBoxLayout;
  top->addWidget(pane.box);
  top->addWidget(pane.caption, 1);
  auto* layout = new QVBoxLayout(widget);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addLayout(top);
  layout->addWidget(pane.view, 1);
  connect(pane.box, &QComboBox::currentIndexChanged, this, [this] {
    if (isVisible()) refresh();
  });
  connect(pane.scene, &GraphScene::nodeSelected, this, [this, side](const QString& name) {
    if (!linking_) linkFrom(side, name);
  });
  return widget;
}

void SideBySideView::fillBoxes() {
  for (Pane& pane : panes_) {
    const QString keep = pane.box->currentData().toString();
    const QSignalBlocker quiet(pane.box);
    fill_level_box(*pane.box, controller_->choices());
    const int index = pane.box->findData(keep);
    pane.box->setCurrentIndex(index >= 0 ? index : 0);
  }
}

LevelChoice SideBySideView::level(Side side) const {
  if (!controller_) return LevelChoice::training();
  const QString key = panes_[side].box->currentData().toString();
  for (const LevelChoice& choice : controller_->choices())
    if (choice.key() == key) return choice;
  return controller_->opened();
}

void SideBySideView::setLevel(Side side, const LevelChoice& level) {
  if (!controller_) return;
  const int index = panes_[side].box->findData(level.key());
  if (index >= 0) panes_[side].box->setCurrentIndex(index);
  refresh();
}

void SideBySideView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
}

void SideBySideView::refresh() {
  if (!controller_) return;  // a pair: shown as given
  if (!lists_levels(*panes_[Left].box, controller_->choices())) fillBoxes();
  controller_->prepare({level(Left), level(Right)}, true);
  showPrograms();
}

void SideBySideView::showPrograms() {
  for (int side = 0; side < 2; ++side) {
    Pane& pane = panes_[side];
    const LevelChoice choice = level(static_cast<Side>(side));
    const LoadedProgramPtr program = controller_->shown(choice);
    const QString error = controller_->error(choice);
    pane.caption->setText(program   ? tr("%n node(s)", nullptr, int(program->graph().size()))
                          : !error.isEmpty() ? tr("failed: %1").arg(error)
                                             : tr("lowering…"));
    if (program == pane.shown) continue;
    pane.shown = program;
    pane.scene->setProgram(program);
    if (program) pane.view->fitAll();
  }
}

QStringList SideBySideView::selectedNodes(Side side) const {
  QStringList out;
  for (const NodeItem* item : panes_[side].scene->nodeItems())
    if (item->isSelected()) out.append(item->nodeName());
  out.sort();
  return out;
}

void SideBySideView::selectNode(Side side, const QString& name) {
  linking_ = true;
  panes_[side].scene->selectNode(name);
  linking_ = false;
  linkFrom(side, name);
}

void SideBySideView::linkFrom(Side side, const QString& name) {
  const Side other = side == Left ? Right : Left;
  Pane& target = panes_[other];
  const LoadedProgramPtr& source = panes_[side].shown;
  linking_ = true;
  QStringList related;
  const ir::Node* node = source && !name.isEmpty() ? source->graph().find(name.toStdString()) : nullptr;
  if (node && target.shown)
    related = relate_ ? relate_(side, name) : related_nodes(*node, level(side), *target.shown->program, level(other));
  // Inside a closed module box the scopes around them open first; the pane's view then centres them.
  if (related.isEmpty()) {
    target.scene->selectNode(QString());
  } else {
    target.scene->revealNodes(related);
  }
  linking_ = false;
}

}  // namespace exportlens::ui

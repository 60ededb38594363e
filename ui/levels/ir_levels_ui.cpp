#include "ui/levels/ir_levels_ui.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>

#include "engine/ir/op_key.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/core/busy_overlay.h"
#include "ui/core/program_model.h"
#include "ui/levels/expansion_item.h"
#include "ui/levels/histogram_panel.h"
#include "ui/levels/ir_level_controller.h"
#include "ui/levels/level_box.h"
#include "ui/levels/level_inspector_panel.h"
#include "ui/levels/level_relation.h"
#include "ui/levels/node_expander.h"
#include "ui/levels/compare_levels_view.h"
#include "ui/program_views/inspector_widget.h"

namespace exportlens::ui {

IrLevelsUi::IrLevelsUi(const IrLevelsParts& parts)
    : QObject(parts.window),
      parts_(parts),
      controller_(new IrLevelController(this)),
      overlay_(new BusyOverlay(parts.centralTabs)) {
  // The window's own cover (opening files) keeps the usual names; this one is the lowering's.
  overlay_->setObjectName(QStringLiteral("levelBusyOverlay"));
  overlay_->cancelButton()->setObjectName(QStringLiteral("levelCancelButton"));
  expander_ = new NodeExpander(parts_.scene, this);
  createSwitch();
  createInspectorPanel();
  createHistogramDock();
  createCompareTab();
  connectController();
}

// ---- the switch -------------------------------------------------------------

void IrLevelsUi::createSwitch() {
  box_ = new QComboBox(parts_.window);
  box_->setObjectName(QStringLiteral("irLevelBox"));
  box_->setToolTip(tr("The IR shown: as exported (training), functional, or lowered to Core ATen by a "
                      "decomposition table (Ctrl+1…)"));
  box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  level_group_ = new QActionGroup(this);
  level_menu_ = new QMenu(tr("IR &Level"), parts_.window);
  connect(box_, &QComboBox::activated, this, [this](int index) {
    if (index >= 0 && index < controller_->choices().size()) switchTo(controller_->choices()[index]);
  });
  rebuildChoices();
}

void IrLevelsUi::rebuildChoices() {
  const QSignalBlocker quiet(box_);
  fill_level_box(*box_, controller_->choices());
  for (QAction* action : std::as_const(level_actions_)) {
    parts_.window->removeAction(action);
    delete action;
  }
  level_actions_.clear();
  const QList<LevelChoice>& choices = controller_->choices();
  for (int i = 0; i < choices.size(); ++i) {
    const LevelChoice choice = choices[i];
    auto* action = new QAction(choice.label(), level_group_);
    action->setCheckable(true);
    action->setData(choice.key());
    if (i < 9) action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    connect(action, &QAction::triggered, this, [this, choice] { switchTo(choice); });
    level_menu_->addAction(action);
    parts_.window->addAction(action);  // shortcuts work wherever the focus is
    level_actions_.append(action);
  }
  syncSwitch();
}

void IrLevelsUi::addToToolBar(QToolBar* bar) {
  bar->addSeparator();
  auto* label = new QLabel(tr(" IR "), bar);
  label->setBuddy(box_);
  bar->addWidget(label);
  bar->addWidget(box_);
}

void IrLevelsUi::addToViewMenu(QMenu* view) {
  view->addMenu(level_menu_);
  view->addAction(histogram_dock_->toggleViewAction());
}

void IrLevelsUi::syncSwitch() {
  const QSignalBlocker quiet(box_);
  box_->setCurrentIndex(box_->findData(parts_.model->level().key()));
  for (QAction* action : std::as_const(level_actions_)) action->setChecked(action->data() == parts_.model->level().key());
}

QString IrLevelsUi::tableFor(const LevelChoice& choice) const {
  return choice.level == passes::IrLevel::Core ? choice.table : QStringLiteral("core");
}

void IrLevelsUi::switchTo(const LevelChoice& choice) {
  if (!parts_.model->loaded()) return;
  controller_->switchTo(choice);
}

void IrLevelsUi::showNodeAt(const LevelChoice& level, const QString& node) {
  if (level == parts_.model->level()) {
    parts_.model->selectNode(node);
    return;
  }
  pending_select_ = node;
  switchTo(level);
}

void IrLevelsUi::setTraining(const LoadedProgramPtr& program) {
  pending_select_.clear();
  controller_->setNodeFont(parts_.window->font());
  expander_->setNodeFont(parts_.window->font());
  controller_->setTraining(program);
  if (!lists_levels(*box_, controller_->choices())) rebuildChoices();  // the first entry names the file
}

void IrLevelsUi::refreshChoices() {
  controller_->refreshChoices();
  if (!lists_levels(*box_, controller_->choices())) rebuildChoices();
}

// ---- following the controller -------------------------------------------------

void IrLevelsUi::connectController() {
  connect(controller_, &IrLevelController::started, this, [this](const QString& text) { overlay_->start(text); });
  connect(controller_, &IrLevelController::progress, overlay_, &BusyOverlay::setProgress);
  connect(overlay_, &BusyOverlay::cancelRequested, controller_, &IrLevelController::cancel);
  connect(controller_, &IrLevelController::currentChanged, this, &IrLevelsUi::onCurrentChanged);
  connect(controller_, &IrLevelController::failed, this, &IrLevelsUi::onFailed);
  connect(controller_, &IrLevelController::cancelled, this, [this] {
    overlay_->stop();
    pending_select_.clear();
    syncSwitch();
    emit statusMessage(tr("Lowering cancelled; still showing %1").arg(parts_.model->level().label()));
  });
  connect(parts_.model, &ProgramModel::selectionChanged, this, &IrLevelsUi::updatePanel);
  connect(parts_.model, &ProgramModel::programOpened, this, [this] { setTraining(parts_.model->opened()); });
  connect(expander_, &NodeExpander::failed, this, [this](const QString& node, const QString& message) {
    emit statusMessage(tr("Could not expand %1: %2").arg(node, message.simplified()));
  });
  connect(expander_, &NodeExpander::expanded, this, [this](const QString& node) {
    if (ExpansionItem* item = expander_->item(node)) parts_.view->reveal(item->frame());
  });
}

void IrLevelsUi::onCurrentChanged(const LevelChoice& choice, const LoadedProgramPtr& program) {
  overlay_->stop();
  ProgramModel* model = parts_.model;
  const LoadedProgramPtr previous = model->loaded();
  const LevelChoice previous_level = model->level();
  const QString previous_node = model->selectedName();
  if (program && program != previous) {
    // Keep the same node in view: the one asked for, else what the selected node became.
    QString select = pending_select_;
    const ir::Node* node = previous ? previous->graph().find(previous_node.toStdString()) : nullptr;
    if (select.isEmpty() && node) {
      const QStringList related = related_nodes(*node, previous_level, *program->program, choice);
      if (!related.isEmpty()) select = related.constLast();  // the node producing the result
    }
    model->setShown(choice, program, select);  // every view follows, the modules open kept
    syncSwitch();
    expander_->setProgram(program, tableFor(choice));
    const QStringList warnings = controller_->warnings(choice);
    emit statusMessage(tr("%1: %2 nodes%3")
                            .arg(choice.label())
                            .arg(program->graph().size())
                            .arg(warnings.isEmpty() ? QString() : tr(", %n lowering warning(s)", nullptr, warnings.size())));
  } else {
    syncSwitch();
    expander_->setProgram(program, tableFor(choice));
  }
  pending_select_.clear();
  updatePanel();
}

void IrLevelsUi::onFailed(const LevelChoice& choice, const QString& message) {
  overlay_->stop();
  pending_select_.clear();
  syncSwitch();
  emit statusMessage(tr("Could not lower to %1; still showing %2").arg(choice.label(), parts_.model->level().label()));
  // Not exec(): the window stays responsive (and scriptable in tests).
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not lower the program"),
                              tr("Lowering to %1 failed.").arg(choice.label()), QMessageBox::Ok, parts_.window);
  box->setObjectName(QStringLiteral("levelErrorBox"));
  box->setInformativeText(message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

// ---- inspector: provenance and expansion ---------------------------------------

void IrLevelsUi::createInspectorPanel() {
  panel_ = new LevelInspectorPanel(parts_.window);
  panel_->setObjectName(QStringLiteral("levelInspectorPanel"));
  // The inspector dock holds the inspector above the provenance panel.
  auto* split = new QSplitter(Qt::Vertical, parts_.window);
  split->setObjectName(QStringLiteral("inspectorSplit"));
  split->addWidget(parts_.inspector);
  split->addWidget(panel_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  parts_.inspectorDock->setWidget(split);
  connect(panel_, &LevelInspectorPanel::stepActivated, this, &IrLevelsUi::showNodeAt);
  connect(panel_, &LevelInspectorPanel::expandRequested, expander_, &NodeExpander::expand);
  // The canvas's context menu.
  GraphView* view = parts_.view;
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& pos) {
    for (QGraphicsItem* item = view->itemAt(pos); item; item = item->parentItem()) {
      if (item->type() == ExpansionItem::Type) {
        auto* expansion = static_cast<ExpansionItem*>(item);
        QMenu* menu = nodeMenu(expansion->nodeName());
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(view->viewport()->mapToGlobal(pos));
        return;
      }
      if (item->type() == NodeItem::Type && !item->parentItem()) {
        const QString name = static_cast<NodeItem*>(item)->nodeName();
        parts_.model->selectNode(name);
        QMenu* menu = nodeMenu(name);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(view->viewport()->mapToGlobal(pos));
        return;
      }
    }
  });
}

QMenu* IrLevelsUi::nodeMenu(const QString& node) {
  auto* menu = new QMenu(parts_.window);
  menu->setObjectName(QStringLiteral("nodeContextMenu"));
  ExpansionItem* expansion = expander_->item(node);
  if (expansion && !expansion->isCollapsed()) {
    menu->addAction(tr("Collapse Decomposition"), this, [this, node] {
      if (ExpansionItem* item = expander_->item(node)) item->setCollapsed(true);
    });
  } else {
    QAction* expand = menu->addAction(tr("Expand Decomposition"), expander_, [this, node] { expander_->expand(node); });
    expand->setEnabled(expander_->canExpand(node));
  }
  if (expansion) menu->addAction(tr("Remove Decomposition"), expander_, [this, node] { expander_->remove(node); });
  // Its module scope: close it, open to a depth, weights as nodes.
  menu->addSeparator();
  parts_.view->addScopeActions(menu, parts_.scene->homeScope(node));
  menu->addSeparator();
  // The same node at the other levels (what it lowers to / comes from).
  QMenu* show = menu->addMenu(tr("Show At Level"));
  for (const LevelChoice& level : controller_->choices()) {
    if (level == parts_.model->level()) continue;
    show->addAction(level.label(), this, [this, level, node] {
      const ir::Node* n = parts_.model->node(node);
      auto target = controller_->program(level);
      if (n && target) {
        const QStringList related = related_nodes(*n, parts_.model->level(), *target, level);
        showNodeAt(level, related.isEmpty() ? QString() : related.constLast());
      } else if (n) {
        // Not lowered yet: after the switch, the selection follows the node (onCurrentChanged).
        parts_.model->selectNode(node);
        switchTo(level);
      }
    });
  }
  return menu;
}

void IrLevelsUi::updatePanel() {
  const ir::Node* node = parts_.model->selectedNode();
  if (!node) {
    panel_->setChain({}, false);
    return;
  }
  const QString name = QString::fromStdString(node->name);
  panel_->setChain(provenance_chain(*node, parts_.model->level(), [this](const LevelChoice& l) { return controller_->program(l); }),
                   expander_->canExpand(name));
}

// ---- the histogram dock and the compare tab --------------------------------------

void IrLevelsUi::createHistogramDock() {
  histogram_ = new HistogramPanel(controller_, parts_.window);
  // A row steps through the nodes calling its op at the level shown (each revealed on the canvas).
  connect(histogram_, &HistogramPanel::opActivated, this, [this](const QString& op) {
    const ir::ExportedProgram* program = parts_.model->program();
    if (!program) return;
    QStringList calls;
    for (const ir::Node* n : program->graph().nodes())
      if (n->op == ir::OpKind::CallFunction && QString::fromStdString(ir::op_key(n->target)) == op)
        calls << QString::fromStdString(n->name);
    if (calls.isEmpty()) return;
    const int at = calls.indexOf(parts_.model->selectedName());
    parts_.model->selectNode(calls[(at + 1) % calls.size()]);
  });
  histogram_dock_ = new QDockWidget(tr("Op histogram"), parts_.window);
  histogram_dock_->setObjectName(QStringLiteral("histogramDock"));
  histogram_dock_->setWidget(histogram_);
  parts_.window->addDockWidget(Qt::BottomDockWidgetArea, histogram_dock_);
  // With the other tabs below the canvas.
  parts_.window->tabifyDockWidget(parts_.histogramBeside, histogram_dock_);
  parts_.frontDock->raise();
}

void IrLevelsUi::createCompareTab() {
  compare_ = new CompareLevelsView(controller_, parts_.centralTabs);
  compare_->setObjectName(QStringLiteral("compareLevelsView"));
  parts_.centralTabs->addTab(compare_, tr("Compare levels"));
}

}  // namespace exportlens::ui

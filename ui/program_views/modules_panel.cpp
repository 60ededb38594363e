#include "ui/program_views/modules_panel.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/canvas/graph_scene.h"
#include "ui/core/program_model.h"
#include "ui/program_views/module_tree_model.h"

namespace exportlens::ui {

ModulesPanel::ModulesPanel(QWidget* parent) : QWidget(parent), tree_(new QTreeView(this)), model_(new ModuleTreeModel(this)) {
  tree_->setObjectName(QStringLiteral("modulesTree"));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setExpandsOnDoubleClick(false);  // double-click opens the scope on the canvas
  tree_->setAlternatingRowColors(true);
  tree_->setIndentation(14);
  // Every column as wide as what it shows (the rows in sight), the names
  // whole: a deep path scrolls sideways rather than reading "co…"; the last
  // column takes the room that is left.
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(true);
  tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  // Shown as Module | Ops | Time | Class: the counts stay in sight in a narrow
  // dock, the class (often as long as the name) is what runs off the edge.
  tree_->header()->moveSection(tree_->header()->visualIndex(ModuleTreeModel::Class), ModuleTreeModel::ColumnCount - 1);
  tree_->setColumnHidden(ModuleTreeModel::Time, true);  // until a run
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tree_);
}

int ModulesPanel::currentScope() const {
  const QModelIndex current = tree_->currentIndex();
  return current.isValid() ? model_->scopeAt(current) : -1;
}

void ModulesPanel::setNodeTimes(const QHash<QString, double>& milliseconds) {
  model_->setNodeTimes(milliseconds);
  showTimeColumn();
}

void ModulesPanel::showTimeColumn() { tree_->setColumnHidden(ModuleTreeModel::Time, !model_->hasTimes()); }

void ModulesPanel::showScope(int scope) {
  const QModelIndex index = model_->indexOf(scope);
  if (!index.isValid() || tree_->currentIndex() == index) return;
  syncing_ = true;
  tree_->setCurrentIndex(index);
  tree_->scrollTo(index);
  syncing_ = false;
}

void ModulesPanel::followExpansion() {
  // Rows open where the canvas has the scope open.
  const ir::ModuleHierarchy* h = scene_->hierarchy();
  if (!h || model_->program() != scene_->program()) return;
  syncing_ = true;
  for (int s = 1; s < int(h->size()); ++s) {
    const QModelIndex index = model_->indexOf(s);
    if ((*h)[s].children.empty()) continue;
    const bool open = scene_->expansion().is_expanded(s);
    if (tree_->isExpanded(index) != open) tree_->setExpanded(index, open);
  }
  syncing_ = false;
}

void ModulesPanel::follow(ProgramModel* model, GraphScene* scene) {
  scene_ = scene;
  connect(model, &ProgramModel::programChanged, this, [this, model] {
    model_->setProgram(model->loaded());
    setNodeTimes(model->runTimes());  // another level: the same run's shares, by node name
    followExpansion();
  });
  connect(model, &ProgramModel::runFinished, this, [this, model] { setNodeTimes(model->runTimes()); });
  connect(scene, &GraphScene::pictureChanged, this, &ModulesPanel::followExpansion);
  connect(model, &ProgramModel::selectionChanged, this, [this, scene](const QString& node) {
    if (!node.isEmpty()) showScope(scene->moduleOf(node));
  });
  connect(scene, &GraphScene::scopeSelected, this, &ModulesPanel::showScope);
  connect(tree_, &QTreeView::expanded, this, [this](const QModelIndex& index) {
    if (!syncing_) scene_->setExpanded(model_->scopeAt(index), true);
  });
  connect(tree_, &QTreeView::collapsed, this, [this](const QModelIndex& index) {
    if (!syncing_) scene_->setExpanded(model_->scopeAt(index), false);
  });
  connect(tree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
    scene_->toggleExpanded(model_->scopeAt(index));
  });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
    if (!syncing_ && current.isValid()) scene_->revealScope(model_->scopeAt(current));
  });
}

}  // namespace exportlens::ui

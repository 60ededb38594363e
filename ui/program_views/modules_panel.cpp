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
  // Rows open where the canvas has the scope open; the canvas's stacks folded here too.
  const ir::ModuleHierarchy* h = scene_->hierarchy();
  if (!h || model_->program() != scene_->program()) return;
  std::vector<std::vector<int>> runs;
  QStringList titles;
  for (const auto& run : scene_->foldedRuns()) {
    // A stack of groups (3 × [2 × ConvBlock, Mixer]): the row holds every call of every group.
    std::vector<int> scopes = run.members;
    if (!run.units.empty()) {
      scopes.clear();
      for (const auto& unit : run.units) scopes.insert(scopes.end(), unit.begin(), unit.end());
    }
    runs.push_back(std::move(scopes));
    titles << run.text.title;
  }
  if (runs != model_->foldedRuns()) model_->setFoldedRuns(std::move(runs), titles);
  syncing_ = true;
  for (int s = 1; s < int(h->size()); ++s) {
    const QModelIndex index = model_->indexOf(s);
    if ((*h)[s].children.empty()) continue;
    const bool open = scene_->expansion().is_expanded(s);
    if (tree_->isExpanded(index) != open) tree_->setExpanded(index, open);
  }
  // A stack's row opens with the instance the canvas shows open.
  const auto& folded = scene_->foldedRuns();
  for (int r = 0; r < int(folded.size()); ++r) {
    const QModelIndex row = model_->indexOfRun(r);
    const bool open = folded[r].units.empty()
                          ? scene_->expansion().is_expanded(scene_->shownMember(folded[r].members.front()))
                          : scene_->isRunFolded(r) && scene_->isRunOpen(r);
    if (row.isValid() && open && !tree_->isExpanded(row)) tree_->setExpanded(row, true);
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
  // A stack's row lists its instances (opening the row opens nothing on the
  // canvas); it acts on the instance the canvas draws for it.
  auto drawn = [this](const QModelIndex& index) {
    const int scope = model_->scopeAt(index);
    const int run = model_->runAt(index);
    if (run < 0 || !scene_->isRunFolded(run)) return scope;
    return scene_->foldedRuns()[static_cast<size_t>(run)].members[static_cast<size_t>(scene_->shownInstance(run))];
  };
  connect(tree_, &QTreeView::expanded, this, [this](const QModelIndex& index) {
    if (!syncing_ && model_->runAt(index) < 0) scene_->setExpanded(model_->scopeAt(index), true);
  });
  connect(tree_, &QTreeView::collapsed, this, [this](const QModelIndex& index) {
    if (!syncing_ && model_->runAt(index) < 0) scene_->setExpanded(model_->scopeAt(index), false);
  });
  connect(tree_, &QTreeView::doubleClicked, this, [this, drawn](const QModelIndex& index) {
    scene_->toggleExpanded(drawn(index));
  });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this, drawn](const QModelIndex& current) {
    if (!syncing_ && current.isValid()) scene_->revealScope(drawn(current));
  });
}

}  // namespace exportlens::ui

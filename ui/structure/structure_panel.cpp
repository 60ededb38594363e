#include "ui/structure/structure_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

#include "engine/structure/structure_facts.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/core/selection_link.h"

namespace exportlens::ui {

StructurePanel::StructurePanel(QWidget* parent)
    : QWidget(parent), model_(new RepeatedStructureModel(this)), jobs_(this) {
  summary_ = new QLabel(tr("No program open."), this);
  summary_->setObjectName(QStringLiteral("structureSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tree_ = new QTreeView(this);
  tree_->setObjectName(QStringLiteral("structureTree"));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(true);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(tree_, &QTreeView::customContextMenuRequested, this, &StructurePanel::showTreeMenu);
  corresponding_ = new QLabel(this);
  corresponding_->setObjectName(QStringLiteral("structureCorresponding"));
  instances_ = new QComboBox(this);
  instances_->setObjectName(QStringLiteral("structureInstances"));
  instances_->setToolTip(tr("The node corresponding to the selected one in each instance of its stacks"));
  instances_->setEnabled(false);
  instances_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* strip = new QHBoxLayout;
  strip->addWidget(corresponding_, 1);
  strip->addWidget(instances_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(summary_);
  layout->addWidget(tree_, 1);
  layout->addLayout(strip);
}

StructurePanel::~StructurePanel() = default;

void StructurePanel::follow(ProgramModel* model) {
  program_model_ = model;
  connect(model, &ProgramModel::programChanged, this, &StructurePanel::analyse);
  connect(model, &ProgramModel::runFinished, this, &StructurePanel::analyse);
  connect(model, &ProgramModel::selectionChanged, this, &StructurePanel::showCorresponding);
  on_current_node(tree_, this, [this](const QString& node) {
    if (!node.isEmpty() && program_model_) program_model_->selectNode(node);
  });
  connect(instances_, &QComboBox::activated, this, [this](int i) {
    if (filling_ || !program_model_) return;
    program_model_->selectNode(instances_->itemData(i, NodeNameRole).toString());
  });
}

void StructurePanel::analyse() {
  jobs_.dropAll();
  const LoadedProgramPtr program = program_model_ ? program_model_->loaded() : nullptr;
  if (!program) {
    show(nullptr, {});
    return;
  }
  summary_->setText(tr("Looking for repeated structure…"));
  const NodeRunTimes times = program_model_->runTimes();
  jobs_.start(
      [program, times](JobContext& context, StructureSnapshotPtr& out) {
        auto s = std::make_shared<StructureSnapshot>();
        s->program = program;
        s->hierarchy = program->hierarchy ? *program->hierarchy : ir::module_hierarchy(program->graph());
        std::string note;
        structure::NodeFacts facts = structure::solve_guard_facts(*program->program, &note);
        context.checkCancelled();
        if (!times.isEmpty()) {
          std::vector<std::pair<std::string, double>> ms;
          for (auto it = times.begin(); it != times.end(); ++it) ms.emplace_back(it.key().toStdString(), it.value());
          structure::add_run_times(facts, *program->program, ms);
          s->timed = true;
        }
        s->note = QString::fromStdString(note);
        s->structure = structure::analyse_structure(*program->program, s->hierarchy, facts);
        out = std::move(s);
      },
      [this](JobOutcome<StructureSnapshotPtr>& outcome) {
        if (!outcome.cancelled) show(outcome.value, outcome.error);
      });
}

void StructurePanel::show(StructureSnapshotPtr snapshot, const QString& error) {
  model_->setSnapshot(snapshot);
  if (!snapshot) {
    summary_->setText(error.isEmpty() ? tr("No program open.") : tr("Could not analyse: %1").arg(error));
  } else {
    const auto& s = snapshot->structure;
    size_t folded = 0;
    for (const auto& st : s.stacks)
      if (st.enclosing < 0) folded += static_cast<size_t>(st.count() * st.period);
    QString text = tr("%1 %2 folding %3 module calls, %4 %5")
                       .arg(s.stacks.size())
                       .arg(s.stacks.size() == 1 ? tr("stack") : tr("stacks"))
                       .arg(folded)
                       .arg(s.odd.size())
                       .arg(s.odd.size() == 1 ? tr("differing instance") : tr("differing instances"));
    if (snapshot->timed) text += tr("; run times weighed");
    if (!snapshot->note.isEmpty()) text += " (" + snapshot->note + ")";
    summary_->setText(text);
    // Open the stacks so their instances and the badges are in view.
    for (size_t k = 0; k < s.stacks.size(); ++k) {
      const QModelIndex at = model_->indexOfStack(static_cast<int>(k));
      for (QModelIndex up = at; up.isValid(); up = up.parent()) tree_->expand(up);
    }
    tree_->resizeColumnToContents(RepeatedStructureModel::Module);
    tree_->resizeColumnToContents(RepeatedStructureModel::Class);
  }
  showCorresponding(program_model_ ? program_model_->selectedName() : QString());
  emit analysed();
}

void StructurePanel::showTreeMenu(const QPoint& pos) {
  const QModelIndex index = tree_->indexAt(pos);
  const StructureSnapshotPtr& snap = model_->snapshot();
  if (!snap || !index.isValid()) return;
  const auto kind = static_cast<RepeatedStructureModel::Kind>(index.data(RepeatedStructureModel::KindRole).toInt());
  const int id = index.data(RepeatedStructureModel::IdRole).toInt();
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  const auto& h = snap->hierarchy;
  if (kind == RepeatedStructureModel::Kind::Odd) {
    const auto& odd = snap->structure.odd[static_cast<size_t>(id)];
    menu->addAction(tr("Compare %1 with %2").arg(QString::fromStdString(h[odd.scope].path),
                                                   QString::fromStdString(h[odd.reference].path)),
                    this, [this, a = odd.reference, b = odd.scope] { emit compareRequested(a, b); });
  } else if (kind == RepeatedStructureModel::Kind::Stack) {
    const auto& st = snap->structure.stacks[static_cast<size_t>(id)];
    const int representative = st.instances[static_cast<size_t>(st.representative)].front();
    QMenu* with = menu->addMenu(tr("Compare %1 with…").arg(QString::fromStdString(h[representative].path)));
    for (const auto& instance : st.instances)
      if (instance.front() != representative)
        with->addAction(QString::fromStdString(h[instance.front()].path), this,
                        [this, representative, b = instance.front()] { emit compareRequested(representative, b); });
  }
  if (menu->isEmpty()) {
    delete menu;
    return;
  }
  menu->popup(tree_->viewport()->mapToGlobal(pos));
}

void StructurePanel::showCorresponding(const QString& name) {
  filling_ = true;
  instances_->clear();
  instances_->setEnabled(false);
  corresponding_->clear();
  const StructureSnapshotPtr& snap = model_->snapshot();
  const ir::Node* node = program_model_ ? program_model_->node(name) : nullptr;
  if (snap && node && node->graph() == &snap->program->graph()) {
    const auto all = snap->structure.corresponding_nodes(snap->hierarchy, node->index());
    if (all.size() > 1) {
      const auto nodes = snap->program->graph().nodes();
      for (int n : all) {
        const int scope = snap->hierarchy.scope_of[static_cast<size_t>(n)];
        const QString label = QString::fromStdString(snap->hierarchy[scope].path) + "  ·  " +
                              QString::fromStdString(nodes[static_cast<size_t>(n)]->name);
        instances_->addItem(label);
        instances_->setItemData(instances_->count() - 1, QString::fromStdString(nodes[static_cast<size_t>(n)]->name),
                                NodeNameRole);
        if (n == node->index()) instances_->setCurrentIndex(instances_->count() - 1);
      }
      instances_->setEnabled(true);
      corresponding_->setText(tr("%1 corresponds to a node in each of %2 instances:").arg(name).arg(all.size()));
    }
  }
  filling_ = false;
}

}  // namespace exportlens::ui

// Stacks drawn as one box on the canvas, in the main window offscreen, on
// programs real torch exported (oracle/structure_models.py): the run of N
// blocks is one box "N × Class (first … last)" (the model's count, torch's
// class) with the edges into and out of the run on it and none between its
// instances; opened, it draws one instance; Show Instance and the Repeated
// structure dock's instance selector switch which; selecting (Find) a node of
// instance k draws instance k; the planted odd instances are flagged on the
// folded box; the Modules dock folds the run into one row; Compare with…
// opens two instances side by side with torch's corresponding ops linked.
// Screenshots: the folded stack, the flagged odd instances, the comparison.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QTreeView>

#include "engine/ir/module_hierarchy.h"
#include "structure/structure_window.h"
#include "support/screenshot.h"
#include "ui/canvas/cluster_item.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/levels/side_by_side_view.h"
#include "ui/program_views/module_tree_model.h"
#include "ui/program_views/modules_panel.h"
#include "ui/shell/main_window.h"
#include "ui/structure/canvas_stacks.h"
#include "ui/structure/stack_marks.h"
#include "ui/structure/structure_panel.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

// "aten.linear.default", as torch's record names ops.
QString op_of(const ir::Node* n) {
  QString q = QString::fromStdString(n->target.qualified());
  return q.startsWith("torch.ops.") ? q.mid(10) : q;
}

// The instances of the model's stack whose parent is `parent` ("" for the root), as module paths.
QStringList instances_of(const QJsonObject& record, const QString& parent) {
  for (const auto& s : record["expected_stacks"].toArray()) {
    const auto stack = s.toObject();
    if (stack["parent"].toString() != parent) continue;
    QStringList out;
    for (const auto& i : stack["instances"].toArray()) {
      if (i.toArray().size() != 1) return {};
      out << i.toArray()[0].toString();
    }
    return out;
  }
  return {};
}

}  // namespace

class TestCanvasStacks : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> window_;

  ui::GraphScene* scene() const { return window_->graphScene(); }
  ui::StructurePanel* panel() const { return window_->structurePanel(); }
  const ir::ModuleHierarchy& h() const { return *scene()->hierarchy(); }
  int scope(const QString& path) const { return h().find_path(path.toStdString()); }

  void settle() {
    QTRY_VERIFY_WITH_TIMEOUT(!scene()->isLayingOut() && !panel()->isBusy(), 60000);
    QCoreApplication::processEvents();
  }

  void open(const QString& name) {
    QVERIFY2(open_structure_program(*window_, name), qPrintable(name));
    QTRY_VERIFY_WITH_TIMEOUT(!scene()->foldedRuns().empty(), 60000);
    settle();
  }

  bool drawn(int s) const { return scene()->scopeItem(s) || scene()->clusterItem(s); }

  // The members drawn of a stack's instances.
  QStringList drawn_of(const QStringList& instances) const {
    QStringList out;
    for (const QString& p : instances)
      if (drawn(scope(p))) out << p;
    return out;
  }

  // Nodes drawn on the canvas inside a module path.
  int nodes_drawn_in(const QString& path) const {
    int n = 0;
    for (const ui::NodeItem* item : scene()->nodeItems())
      if (inside(module_of(window_->programModel()->node(item->nodeName())), path)) ++n;
    return n;
  }

  const ir::Node* first_op_in(const QString& path) const {
    return testing::first_op_in(window_->programModel()->program()->graph(), path);
  }

  ui::CanvasStacks* stacks() const { return window_->findChild<ui::CanvasStacks*>(QStringLiteral("canvasStacks")); }

 private slots:
  void init() {
    window_ = std::make_unique<ui::MainWindow>();
    window_->resize(1500, 950);
    window_->show();
  }
  void cleanup() { window_.reset(); }

  void a_stack_is_one_box() {
    open("odd_blocks");
    const auto record = structure_record("odd_blocks");
    const QStringList instances = instances_of(record, "");
    QVERIFY(instances.size() > 2);
    scene()->collapseAll();
    settle();
    // One box stands for all of them: the first instance's, saying the model's count and torch's class.
    QCOMPARE(drawn_of(instances), QStringList{instances.first()});
    const int first = scope(instances.first());
    ui::ScopeItem* box = scene()->scopeItem(first);
    QVERIFY(box);
    QCOMPARE(box->text().title, QString("%1 × %2").arg(instances.size()).arg(class_of(record, instances.first())));
    QVERIFY2(box->text().detail.startsWith(instances.first() + " … " + instances.last() + " · "),
             qPrintable(box->text().detail));
    size_t ops = 0;
    for (const QString& p : instances) ops += h()[scope(p)].op_count;
    QVERIFY2(box->text().detail.contains(QString::number(ops)), qPrintable(box->text().detail));
    // The run's input comes into the box and its output leaves it; nothing else is drawn of the blocks.
    const QString key = QString("#%1").arg(first);
    bool in = false, out = false;
    for (const ui::EdgeItem* e : scene()->edgeItems()) {
      in = in || e->to() == key;
      out = out || e->from() == key;
    }
    QVERIFY(in && out);
    for (const QString& p : instances.mid(1)) QCOMPARE(nodes_drawn_in(p), 0);
    // The planted instances are flagged on the folded box, each named in its tooltip.
    auto* marks = window_->findChild<ui::StackMarks*>(QStringLiteral("stackMarks"));
    QVERIFY(marks);
    const auto planted = record["planted"].toObject();
    QCOMPARE(marks->badges().value(first), QString("! %1 of %2 differ").arg(planted.size()).arg(instances.size()));
    for (const QString& p : planted.keys()) QVERIFY2(box->text().tooltip.contains("<b>" + p + "</b>"), qPrintable(p));
    window_->graphView()->fitAll();
    save_screenshot(window_.get(), QStringLiteral("structure_stack_one_box.png"), QSize(800, 500));
  }

  void opening_it_shows_one_instance_and_the_selector_switches_it() {
    open("odd_blocks");
    const QStringList instances = instances_of(structure_record("odd_blocks"), "");
    const int first = scope(instances.first());
    scene()->collapseAll();
    settle();
    QVERIFY(scene()->scopeItem(first));
    scene()->setExpanded(first, true);
    settle();
    QVERIFY(scene()->clusterItem(first));
    QCOMPARE(drawn_of(instances), QStringList{instances.first()});
    QVERIFY(nodes_drawn_in(instances.first()) > 0);
    for (const QString& p : instances.mid(1)) QCOMPARE(nodes_drawn_in(p), 0);

    // Show Instance: another one drawn instead, open as the first was.
    const QString third = instances[2];
    scene()->showMember(scope(third));
    settle();
    QCOMPARE(drawn_of(instances), QStringList{third});
    QVERIFY(scene()->clusterItem(scope(third)));
    QVERIFY(nodes_drawn_in(third) > 0);
    QCOMPARE(nodes_drawn_in(instances.first()), 0);
    QCOMPARE(scene()->shownMember(first), scope(third));

    // The dock's instance selector: the counterpart in the last instance, drawn there.
    const ir::Node* op = first_op_in(third);
    QVERIFY(op);
    window_->programModel()->selectNode(QString::fromStdString(op->name));
    settle();
    QComboBox* box = panel()->instanceBox();
    QCOMPARE(box->count(), instances.size());
    box->setCurrentIndex(box->count() - 1);
    emit box->activated(box->count() - 1);
    settle();
    const ir::Node* chosen = window_->programModel()->selectedNode();
    QVERIFY(chosen && inside(module_of(chosen), instances.last()));
    QCOMPARE(drawn_of(instances), QStringList{instances.last()});
    ui::NodeItem* item = scene()->nodeItem(QString::fromStdString(chosen->name));
    QVERIFY(item && item->isSelected());

    // Show All Instances: every block a box or frame of its own again.
    scene()->setRunFolded(scene()->runOf(first), false);
    settle();
    QCOMPARE(drawn_of(instances), instances);
    save_screenshot(window_.get(), QStringLiteral("structure_stack_all_instances.png"), QSize(800, 500));
  }

  void finding_a_node_draws_its_instance() {
    open("odd_blocks");
    const auto record = structure_record("odd_blocks");
    const QStringList instances = instances_of(record, "");
    // A planted instance: its own first op, found and selected (what Find does), opens that instance.
    const QString odd = record["planted"].toObject().keys().last();
    const ir::Node* op = first_op_in(odd);
    QVERIFY(op);
    window_->programModel()->selectNode(QString::fromStdString(op->name));
    settle();
    QCOMPARE(drawn_of(instances), QStringList{odd});
    ui::NodeItem* item = scene()->nodeItem(QString::fromStdString(op->name));
    QVERIFY(item && item->isSelected());
    auto* marks = window_->findChild<ui::StackMarks*>(QStringLiteral("stackMarks"));
    const int k = int(instances.indexOf(odd));
    QCOMPARE(marks->badges().value(scope(odd)), QString("! %1/%2").arg(k + 1).arg(instances.size()));
    save_screenshot(window_.get(), QStringLiteral("structure_stack_odd_instance.png"), QSize(800, 500));
  }

  void nested_stacks_fold_inside_the_instance_shown() {
    open("nested_stages");
    const auto record = structure_record("nested_stages");
    const QStringList stages = instances_of(record, "");
    QVERIFY(stages.size() > 1);
    QCOMPARE(drawn_of(stages), QStringList{stages.first()});
    // A node in the second stage's third block: that stage drawn, that block in it.
    const QStringList blocks = instances_of(record, stages[1]);
    QVERIFY(blocks.size() > 2);
    const ir::Node* op = first_op_in(blocks[2]);
    QVERIFY(op);
    window_->programModel()->selectNode(QString::fromStdString(op->name));
    settle();
    QCOMPARE(drawn_of(stages), QStringList{stages[1]});
    QCOMPARE(drawn_of(blocks), QStringList{blocks[2]});
    QVERIFY(scene()->nodeItem(QString::fromStdString(op->name)));
    // The instance drawn for a stack says so in its frame's title.
    const QString title = QString("%1 × %2").arg(blocks.size()).arg(class_of(record, blocks[0]));
    QCOMPARE(scene()->clusterItem(scope(blocks[2]))->label(),
             QString("%1 · %2").arg(blocks[2], title));
  }

  void the_modules_dock_folds_the_stack() {
    open("odd_blocks");
    const auto record = structure_record("odd_blocks");
    const QStringList instances = instances_of(record, "");
    auto* panel = window_->findChild<ui::ModulesPanel*>();
    QVERIFY(panel);
    auto* tree = panel->findChild<QTreeView*>(QStringLiteral("modulesTree"));
    QVERIFY(tree);
    const QAbstractItemModel* m = tree->model();
    QModelIndex run;
    int rows_of_blocks = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
      const QModelIndex i = m->index(r, 0);
      if (i.data(ui::ModuleTreeModel::RunRole).toInt() >= 0) run = i;
      if (inside(QString::fromStdString(h()[i.data(ui::ModuleTreeModel::ScopeRole).toInt()].path), "blocks")) ++rows_of_blocks;
    }
    QVERIFY(run.isValid());
    QCOMPARE(rows_of_blocks, 1);  // one row for the eight
    QCOMPARE(run.data().toString(), QString("%1 × %2").arg(instances.size()).arg(class_of(record, instances.first())));
    QCOMPARE(m->rowCount(run), int(instances.size()));
    size_t ops = 0;
    for (int r = 0; r < m->rowCount(run); ++r) {
      const int s = m->index(r, 0, run).data(ui::ModuleTreeModel::ScopeRole).toInt();
      QCOMPARE(QString::fromStdString(h()[s].path), instances[r]);
      ops += h()[s].op_count;
    }
    QCOMPARE(m->index(run.row(), ui::ModuleTreeModel::Ops).data().toULongLong(), qulonglong(ops));
    // In step with the canvas: picking an instance's row draws that instance.
    tree->setCurrentIndex(m->index(4, 0, run));
    settle();
    QCOMPARE(drawn_of(instances), QStringList{instances[4]});
  }

  void compare_with_links_corresponding_nodes() {
    open("odd_blocks");
    const auto record = structure_record("odd_blocks");
    const QStringList instances = instances_of(record, "");
    // The first block against a planted one with another activation: their linears still pair up.
    QString odd;
    const QJsonObject planted = record["planted"].toObject();
    for (auto it = planted.begin(); it != planted.end(); ++it)
      if (it.value().toObject()["kind"].toString() == "activation") odd = it.key();
    QVERIFY(!odd.isEmpty());
    stacks()->compare(scope(instances.first()), scope(odd));
    ui::SideBySideView* view = stacks()->comparison();
    QVERIFY(view);
    using Side = ui::SideBySideView::Side;
    QTRY_VERIFY_WITH_TIMEOUT(!view->scene(Side::Left)->isLayingOut() && !view->scene(Side::Right)->isLayingOut() &&
                                 view->scene(Side::Left)->clusterItem(scope(instances.first())) &&
                                 view->scene(Side::Right)->clusterItem(scope(odd)),
                             60000);
    // Every op of the first block that torch also has in the odd one (by op, in order) links to one there.
    const auto ops_first = torch_op_counts(record, "training", instances.first());
    const auto ops_odd = torch_op_counts(record, "training", odd);
    int linked = 0;
    for (const ir::Node* n : window_->programModel()->program()->graph().nodes()) {
      if (n->op != ir::OpKind::CallFunction || !inside(module_of(n), instances.first()) || !n->value.tensor()) continue;
      const QString target = op_of(n);
      if (!ops_odd.contains(target) || ops_odd[target] != ops_first.value(target)) continue;
      view->selectNode(Side::Left, QString::fromStdString(n->name));
      QTRY_VERIFY_WITH_TIMEOUT(!view->scene(Side::Right)->isLayingOut(), 60000);
      const QStringList right = view->selectedNodes(Side::Right);
      QCOMPARE(right.size(), 1);
      const ir::Node* there = window_->programModel()->program()->graph().find(right[0].toStdString());
      QVERIFY(there && inside(module_of(there), odd));
      QCOMPARE(op_of(there), target);
      ++linked;
    }
    QVERIFY(linked > 3);
    save_screenshot(view->window(), QStringLiteral("structure_compare_instances.png"), QSize(1000, 600));
  }
};

QTEST_MAIN(TestCanvasStacks)
#include "test_canvas_stacks.moc"

// Stacks drawn as one box on the canvas, in the main window offscreen, on
// programs real torch exported (oracle/structure_models.py): the run of N
// blocks is one box "N × Class (first … last)" (the model's count, torch's
// class) with the edges into and out of the run on it and none between its
// instances; opened, it draws one instance; Show Instance and the Repeated
// structure dock's instance selector switch which; selecting (Find) a node of
// instance k draws instance k; the planted odd instances are flagged on the
// folded box; the Modules dock folds the run into one row; Compare with…
// opens two instances side by side with torch's corresponding ops linked.
// A stack whose instance is several calls no module groups (grouped_stages:
// each stage 3 × [2 × ConvBlock, Mixer]) is one box too, opened into the
// calls of one group, switched through the canvas's real context menu and by
// selecting a node; the Modules dock folds it; the Repeated structure dock's
// Compare menu opens two groups side by side, call by call linked.
// Screenshots: the folded stack, the flagged odd instances, the comparison,
// the stack of groups.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
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
#include "ui/compare/side_by_side_view.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/core/scope_display.h"
#include "ui/program_views/module_tree_model.h"
#include "ui/program_views/modules_panel.h"
#include "ui/shell/main_window.h"
#include "ui/structure/canvas_stacks.h"
#include "ui/structure/repeated_structure_model.h"
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

// The stack under `parent` whose instances are several calls each, as module paths.
QList<QStringList> groups_of(const QJsonObject& record, const QString& parent) {
  for (const auto& s : record["expected_stacks"].toArray()) {
    const auto stack = s.toObject();
    if (stack["parent"].toString() != parent || stack["instances"].toArray()[0].toArray().size() < 2) continue;
    QList<QStringList> out;
    for (const auto& i : stack["instances"].toArray()) {
      QStringList paths;
      for (const auto& p : i.toArray()) paths << p.toString();
      out << paths;
    }
    return out;
  }
  return {};
}

// "2 × ConvBlock, Mixer": one group's calls by torch's classes, a run of one class counted.
QString group_title(const QJsonObject& record, const QStringList& group) {
  QStringList parts;
  for (int i = 0; i < group.size();) {
    const QString cls = class_of(record, group[i]);
    int j = i;
    while (j < group.size() && class_of(record, group[j]) == cls) ++j;
    parts << (j - i > 1 ? QString("%1 × %2").arg(j - i).arg(cls) : cls);
    i = j;
  }
  return parts.join(", ");
}

// The visible popup menu named `name` (a context menu just asked for).
QMenu* popup_named(QWidget* window, const QString& name) {
  for (QMenu* m : window->findChildren<QMenu*>(name))
    if (m->isVisible()) return m;
  return nullptr;
}

// The submenu of `menu` whose title starts with `title`.
QMenu* submenu_of(QMenu* menu, const QString& title) {
  for (QAction* a : menu->actions())
    if (a->menu() && a->text().startsWith(title)) return a->menu();
  return nullptr;
}

}  // namespace

class TestCanvasStacks : public StructureWindowTest {
  Q_OBJECT

  ui::GraphScene* scene() const { return window_->graphScene(); }
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

  ui::CanvasStacks* stacks() const { return window_->findChild<ui::CanvasStacks*>(QStringLiteral("canvasStacks")); }

 private slots:
  void the_first_view_follows_the_fold_to_the_inputs_data() {
    QTest::addColumn<QString>("fixture");
    for (const char* name : {"transformer_stack", "grouped_stages", "nested_stages", "odd_blocks"}) QTest::newRow(name) << name;
  }

  void the_first_view_follows_the_fold_to_the_inputs() {
    // The stacks fold a moment after the program opens, and the picture is
    // laid out again, deeper and wider (Swin-T at full depth: 1,541 px became
    // 2,730 px, its input moving 600 px right). The view the user has not
    // touched is the new picture's first view, on its inputs, not the spot
    // where they were before the fold.
    QFETCH(QString, fixture);
    open(fixture);
    ui::GraphView* view = window_->graphView();
    const auto centre = [view] { return view->mapToScene(view->viewport()->rect().center()); };
    const QPointF opened = centre();
    const qreal zoom = view->zoom();
    QVERIFY(scene()->sceneRect().width() > 0);
    view->showStart(scene()->startFocus());
    QCOMPARE(view->zoom(), zoom);
    QVERIFY2(QLineF(opened, centre()).length() < 2,
             qPrintable(QStringLiteral("opened centred on (%1, %2), the picture's first view is (%3, %4)")
                            .arg(opened.x()).arg(opened.y()).arg(centre().x()).arg(centre().y())));
    QVERIFY(view->mapToScene(view->viewport()->rect()).boundingRect().intersects(scene()->startFocus()));
  }

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

  // Stages each built with another depth and width: one box that says how they differ, no badge.
  void a_varied_stack_is_one_box_naming_its_settings() {
    open("varied_stages");
    const auto record = structure_record("varied_stages");
    const QStringList instances = instances_of(record, "stages");
    QVERIFY(instances.size() > 2);
    scene()->collapseAll();
    settle();
    scene()->setExpanded(scope("stages"), true);
    settle();
    QCOMPARE(drawn_of(instances), QStringList{instances.first()});
    ui::ScopeItem* box = scene()->scopeItem(scope(instances.first()));
    QVERIFY(box);
    QCOMPARE(box->text().title, QString("%1 × %2").arg(instances.size()).arg(class_of(record, instances.first())));
    // The settings of the model's own table, on the box.
    const auto settings = record["settings"].toObject()["stages"].toObject();
    QStringList widths, depths;
    for (const auto& w : settings["width"].toArray()) widths << w.toString();
    for (const auto& d : settings["depth"].toArray()) depths << d.toString();
    for (const QString& want : {"width " + widths.join(QChar(0xB7)), "depth " + depths.join(QChar(0xB7))})
      QVERIFY2(box->text().detail.contains(want) && box->text().tooltip.contains(want), qPrintable(box->text().detail));
    auto* marks = window_->findChild<ui::StackMarks*>(QStringLiteral("stackMarks"));
    QVERIFY(marks);
    QVERIFY2(!marks->badges().contains(scope(instances.first())), qPrintable(marks->badges().value(scope(instances.first()))));
    window_->graphView()->fitAll();
    save_screenshot(window_.get(), QStringLiteral("structure_varied_stages.png"), QSize(800, 500));
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

  void a_stack_of_groups_is_one_box();

  // odd_group: the one box for a stack of groups flags the group whose mixer was planted odd.
  void a_stack_of_groups_flags_its_odd_group() {
    open("odd_group");
    const auto record = structure_record("odd_group");
    const QList<QStringList> groups = groups_of(record, "stages.0");
    QVERIFY(groups.size() > 2);
    QStringList calls;
    for (const QStringList& g : groups) calls << g;
    scene()->collapseAll();
    settle();
    scene()->setExpanded(scope("stages.0"), true);
    settle();
    QCOMPARE(drawn_of(calls), QStringList{groups.first().first()});
    const int anchor = scope(groups.first().first());
    ui::ScopeItem* box = scene()->scopeItem(anchor);
    QVERIFY(box);
    auto* marks = window_->findChild<ui::StackMarks*>(QStringLiteral("stackMarks"));
    QVERIFY(marks);
    const QStringList planted = record["planted"].toObject().keys();
    QCOMPARE(marks->badges().value(anchor), QString("! %1 of %2 differ").arg(planted.size()).arg(groups.size()));
    for (const QString& p : planted) QVERIFY2(box->text().tooltip.contains("<b>" + p + "</b>"), qPrintable(p));
    window_->graphView()->fitAll();
    save_screenshot(window_.get(), QStringLiteral("structure_stack_of_groups_odd.png"), QSize(800, 500));
  }
  void the_structure_docks_compare_menu_compares_two_groups();

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

void TestCanvasStacks::a_stack_of_groups_is_one_box() {
  open("grouped_stages");
  const auto record = structure_record("grouped_stages");
  const QStringList stages = instances_of(record, "");
  QVERIFY(stages.size() > 1);
  const QList<QStringList> groups = groups_of(record, stages.first());
  QVERIFY(groups.size() > 2 && groups.first().size() > 2);
  QStringList calls;
  for (const QStringList& g : groups) calls << g;
  scene()->collapseAll();
  settle();
  scene()->setExpanded(scope(stages.first()), true);
  settle();
  // One box for every call of every group: the first call's, saying torch's count and classes.
  QCOMPARE(drawn_of(calls), QStringList{groups.first().first()});
  const int anchor = scope(groups.first().first());
  ui::ScopeItem* box = scene()->scopeItem(anchor);
  QVERIFY(box);
  const QString title = QString("%1 × [%2]").arg(groups.size()).arg(group_title(record, groups.first()));
  QCOMPARE(box->text().title, title);
  QVERIFY2(box->text().detail.startsWith(groups.first().first() + " … " + groups.last().last() + " · "),
           qPrintable(box->text().detail));
  size_t ops = 0;
  for (const QString& p : calls) ops += h()[scope(p)].op_count;
  QVERIFY2(box->text().detail.contains(QString::number(ops)), qPrintable(box->text().detail));
  // Its boundary: what the group's first call takes in, what its last call gives out.
  const auto& loaded = window_->programModel()->loaded();
  auto boundary = [&](const QString& path) {
    return ui::scope_text(h(), scope(path), loaded->graph().nodes(), loaded->weights.get()).boundary;
  };
  QCOMPARE(box->text().boundary, boundary(groups.first().first()).section(" → ", 0, 0) + " → " +
                                     boundary(groups.first().last()).section(" → ", 1));
  // The stage's input comes into the box and the groups' output leaves it (to the next stage,
  // drawn when the stages are not folded into one).
  const int stage_run = scene()->runOf(scope(stages.first()));
  QVERIFY(stage_run >= 0);
  scene()->setRunFolded(stage_run, false);
  settle();
  const QString key = QString("#%1").arg(anchor);
  bool in = false, out = false;
  for (const ui::EdgeItem* e : scene()->edgeItems()) {
    in = in || e->to() == key;
    out = out || (e->from() == key && e->to() == QString("#%1").arg(scope(stages[1])));
  }
  QVERIFY(in && out);
  scene()->setRunFolded(stage_run, true);
  settle();
  for (const QString& p : calls) QCOMPARE(nodes_drawn_in(p), 0);
  const int run = scene()->runDrawnBy(anchor);
  QVERIFY(run >= 0);
  QCOMPARE(scene()->foldedRuns()[run].units.size(), size_t(groups.size()));
  // The status bar says the depth drawn: the stage open, the groups inside one box.
  QVERIFY2(window_->statusText().endsWith("shown to depth 1"), qPrintable(window_->statusText()));

  // The Modules dock: one row for the groups, each group's blocks folded in it, then its mixer.
  auto* tree = window_->findChild<ui::ModulesPanel*>()->findChild<QTreeView*>(QStringLiteral("modulesTree"));
  const QAbstractItemModel* m = tree->model();
  QModelIndex row;
  std::function<void(const QModelIndex&)> find = [&](const QModelIndex& parent) {
    for (int r = 0; r < m->rowCount(parent); ++r) {
      const QModelIndex i = m->index(r, 0, parent);
      if (i.data().toString() == title && !row.isValid()) row = i;
      find(i);
    }
  };
  find({});
  QVERIFY(row.isValid());
  QCOMPARE(m->rowCount(row), int(groups.size() * 2));
  QCOMPARE(m->index(row.row(), ui::ModuleTreeModel::Ops, row.parent()).data().toULongLong(), qulonglong(ops));
  for (int g = 0; g < groups.size(); ++g) {
    const QModelIndex blocks = m->index(2 * g, 0, row);
    QCOMPARE(blocks.data().toString(), QString("%1 × %2").arg(groups[g].size() - 1).arg(class_of(record, groups[g][0])));
    QCOMPARE(m->rowCount(blocks), int(groups[g].size() - 1));
    QCOMPARE(QString::fromStdString(h()[m->index(2 * g + 1, 0, row).data(ui::ModuleTreeModel::ScopeRole).toInt()].path),
             groups[g].last());
  }
  window_->graphView()->fitAll();
  save_screenshot(window_.get(), QStringLiteral("structure_stack_of_groups.png"), QSize(800, 500));

  // Opened (what double-click does): the calls of one group, its blocks folded into one again.
  scene()->toggleExpanded(anchor);
  settle();
  QVERIFY(scene()->isRunOpen(run));
  QCOMPARE(drawn_of(calls), (QStringList{groups[0].first(), groups[0].last()}));
  QVERIFY2(window_->statusText().endsWith("shown to depth 1"), qPrintable(window_->statusText()));
  scene()->setExpanded(scope(groups[0].last()), true);  // the mixer open: deeper
  settle();
  QVERIFY(nodes_drawn_in(groups[0].last()) > 0);
  QVERIFY2(window_->statusText().endsWith("shown to depth 2"), qPrintable(window_->statusText()));

  // The canvas's context menu on the mixer: Show Instance ▸ the third group.
  ui::GraphView* view = window_->graphView();
  const QRectF mixer = scene()->scopeRect(scope(groups[0].last()));
  QVERIFY(!mixer.isNull());
  const QPointF title_of_mixer(mixer.left() + 24, mixer.top() + 8);  // an open frame takes the mouse on its title
  view->centerOn(title_of_mixer);
  emit view->customContextMenuRequested(view->mapFromScene(title_of_mixer));
  QMenu* menu = popup_named(window_.get(), QStringLiteral("scopeContextMenu"));
  QVERIFY(menu);
  QMenu* which = submenu_of(menu, "Show Instance of " + title);
  QVERIFY(which);
  QCOMPARE(which->actions().size(), int(groups.size()));
  QVERIFY(which->actions()[0]->isChecked());
  which->actions()[2]->trigger();
  menu->close();
  settle();
  QCOMPARE(drawn_of(calls), (QStringList{groups[2].first(), groups[2].last()}));

  // A node selected in the second group's second block: that group drawn, that block in it.
  const ir::Node* op = first_op_in(groups[1][1]);
  QVERIFY(op);
  window_->programModel()->selectNode(QString::fromStdString(op->name));
  settle();
  QCOMPARE(drawn_of(calls), (QStringList{groups[1][1], groups[1].last()}));
  QVERIFY(scene()->nodeItem(QString::fromStdString(op->name)));
  save_screenshot(window_.get(), QStringLiteral("structure_stack_of_groups_open.png"), QSize(800, 500));

  // The Repeated structure dock's instance selector: the counterpart in the last group's block, drawn there.
  QComboBox* selector = panel()->instanceBox();
  int pick = -1;
  for (int i = 0; i < selector->count(); ++i) {
    const ir::Node* n = window_->programModel()->node(selector->itemData(i, ui::NodeNameRole).toString());
    if (n && inside(module_of(n), groups.last()[1])) pick = i;
  }
  QVERIFY(pick >= 0);
  selector->setCurrentIndex(pick);
  emit selector->activated(pick);
  settle();
  QCOMPARE(drawn_of(calls), (QStringList{groups.last()[1], groups.last().last()}));
  const ir::Node* chosen = window_->programModel()->selectedNode();
  QVERIFY(chosen && inside(module_of(chosen), groups.last()[1]));
  QVERIFY(scene()->nodeItem(QString::fromStdString(chosen->name)));

  // Fold into One Box from the menu: one box again, standing for the group drawn.
  const QRectF mixer1 = scene()->scopeRect(scope(groups.last().last()));
  view->centerOn(mixer1.topLeft() + QPointF(24, 8));
  emit view->customContextMenuRequested(view->mapFromScene(mixer1.topLeft() + QPointF(24, 8)));
  menu = popup_named(window_.get(), QStringLiteral("scopeContextMenu"));
  QVERIFY(menu);
  QAction* close = menu->findChild<QAction*>(QStringLiteral("stackCloseAction"));
  QVERIFY(close);
  close->trigger();
  menu->close();
  settle();
  QCOMPARE(drawn_of(calls), QStringList{groups.last().first()});
}

void TestCanvasStacks::the_structure_docks_compare_menu_compares_two_groups() {
  open("grouped_stages");
  const auto record = structure_record("grouped_stages");
  const QList<QStringList> groups = groups_of(record, instances_of(record, "").first());
  QVERIFY(groups.size() > 2);
  // The stack of groups' row in the Repeated structure dock, its context menu asked for.
  auto* tree = panel()->findChild<QTreeView*>(QStringLiteral("structureTree"));
  QVERIFY(tree);
  const auto snap = panel()->model()->snapshot();
  QModelIndex row;
  std::function<void(const QModelIndex&)> find = [&](const QModelIndex& parent) {
    for (int r = 0; r < tree->model()->rowCount(parent); ++r) {
      const QModelIndex i = tree->model()->index(r, 0, parent);
      const auto kind = static_cast<ui::RepeatedStructureModel::Kind>(i.data(ui::RepeatedStructureModel::KindRole).toInt());
      const int id = i.data(ui::RepeatedStructureModel::IdRole).toInt();
      if (!row.isValid() && kind == ui::RepeatedStructureModel::Kind::Stack &&
          snap->structure.stacks[id].instances.front().front() == scope(groups[0][0]) &&
          snap->structure.stacks[id].period > 1)
        row = i;
      find(i);
    }
  };
  find({});
  QVERIFY(row.isValid());
  tree->scrollTo(row);
  emit tree->customContextMenuRequested(tree->visualRect(row).center());
  QMenu* menu = nullptr;
  for (QMenu* m : panel()->findChildren<QMenu*>())
    if (m->isVisible()) menu = m;
  QVERIFY(menu);
  QMenu* with = submenu_of(menu, "Compare");
  QVERIFY(with);
  QCOMPARE(with->actions().size(), int(groups.size() - 1));
  with->actions().last()->trigger();  // the first group with the last
  menu->close();
  ui::SideBySideView* view = stacks()->comparison();
  QVERIFY(view);
  using Side = ui::SideBySideView::Side;
  const QStringList& left = groups.first();
  const QStringList& right = groups.last();
  auto all_open = [&](Side side, const QStringList& calls) {
    for (const QString& c : calls)
      if (!view->scene(side)->clusterItem(scope(c))) return false;
    return !view->scene(side)->isLayingOut();
  };
  QTRY_VERIFY_WITH_TIMEOUT(all_open(Side::Left, left) && all_open(Side::Right, right), 60000);
  // Each op of a call of the first group links to the same op of that call in the last group.
  int linked = 0;
  for (int c = 0; c < left.size(); ++c)
    for (const ir::Node* n : window_->programModel()->program()->graph().nodes()) {
      if (n->op != ir::OpKind::CallFunction || !inside(module_of(n), left[c]) || !n->value.tensor()) continue;
      view->selectNode(Side::Left, QString::fromStdString(n->name));
      QTRY_VERIFY_WITH_TIMEOUT(!view->scene(Side::Right)->isLayingOut(), 60000);
      const QStringList there = view->selectedNodes(Side::Right);
      QCOMPARE(there.size(), 1);
      const ir::Node* t = window_->programModel()->program()->graph().find(there[0].toStdString());
      QVERIFY(t && inside(module_of(t), right[c]));
      QCOMPARE(op_of(t), op_of(n));
      ++linked;
    }
  QVERIFY(linked >= left.size());
  save_screenshot(view->window(), QStringLiteral("structure_compare_groups.png"), QSize(1000, 600));
}

QTEST_MAIN(TestCanvasStacks)
#include "test_canvas_stacks.moc"

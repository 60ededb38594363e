// The Repeated structure dock in the main window, offscreen, on programs real
// torch exported (oracle/structure_models.py): the stack is one row named
// with torch's class and the model's count, flagged with a badge; exactly
// the planted instances are rows under it with their differences; a click
// selects a node of that instance; the instance selector lists the node's
// counterpart in every instance (nested stacks multiply) and selects it.
// On the canvas, with the stack's instances all drawn, every instance carries
// its badge (the odd ones "!"), and the selected node's counterparts are ringed. Screenshots of a folded
// stack, of flagged odd instances, and of the canvas's badges.
#include <QtTest>

#include <functional>

#include <QComboBox>
#include <QFileInfo>
#include <QDockWidget>
#include <QLabel>
#include <QTreeView>

#include "engine/ir/module_hierarchy.h"
#include "structure/structure_window.h"
#include "support/screenshot.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/canvas/cluster_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/scope_item.h"
#include "ui/shell/main_window.h"
#include "ui/structure/stack_marks.h"
#include "ui/structure/structure_panel.h"

using namespace exportlens;
using namespace exportlens::testing;
using Model = ui::RepeatedStructureModel;

class TestStructurePanel : public StructureWindowTest {
  Q_OBJECT


  void open(const QString& name) { QVERIFY2(open_structure_program(*window_, name), qPrintable(name)); }

  void raise_dock() {
    auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("structureDock"));
    QVERIFY(dock);
    dock->show();
    dock->raise();
    QCoreApplication::processEvents();
  }

  // The top-level row of the root's one stack.
  QModelIndex root_stack() const {
    const Model* m = panel()->model();
    for (int r = 0; r < m->rowCount(); ++r) {
      const QModelIndex i = m->index(r, 0);
      if (i.data(Model::KindRole).toInt() == int(Model::Kind::Stack)) return i;
    }
    return {};
  }

  // Selects `node` and returns what the instance selector lists (module path per entry).
  QStringList select_and_list(const ir::Node* node) {
    window_->programModel()->selectNode(QString::fromStdString(node->name));
    QStringList modules;
    QComboBox* box = panel()->instanceBox();
    for (int i = 0; i < box->count(); ++i)
      modules << module_of(window_->programModel()->node(box->itemData(i, ui::NodeNameRole).toString()));
    return modules;
  }

 private slots:
  void flags_the_planted_instances() {
    open("odd_blocks");
    const auto record = structure_record("odd_blocks");
    const auto stack = record["expected_stacks"].toArray()[0].toObject()["instances"].toArray();
    const QString first = stack.first().toArray()[0].toString(), last = stack.last().toArray()[0].toString();
    const QModelIndex st = root_stack();
    QVERIFY(st.isValid());
    QCOMPARE(st.data().toString(), QString("%1 × %2 (%3 … %4)").arg(stack.size()).arg(class_of(record, first), first, last));
    QVERIFY(!st.data(Qt::DecorationRole).value<QIcon>().isNull());  // the badge
    const Model* m = panel()->model();
    QStringList odd;
    for (int r = 0; r < m->rowCount(st); ++r) {
      const QModelIndex row = m->index(r, Model::Module, st);
      if (row.data(Model::KindRole).toInt() != int(Model::Kind::Odd)) continue;
      odd << row.data().toString();
      QVERIFY(!row.data(Qt::DecorationRole).value<QIcon>().isNull());
      const QString note = m->index(r, Model::Note, st).data().toString();
      QVERIFY2(!note.isEmpty() && row.data(Qt::ToolTipRole).toString().contains(row.data().toString() + " differs from "),
               qPrintable(row.data(Qt::ToolTipRole).toString()));
      // A click on the instance selects one of its nodes everywhere.
      panel()->tree()->setCurrentIndex(row);
      QVERIFY2(inside(module_of(window_->programModel()->selectedNode()), row.data().toString()),
               qPrintable(window_->programModel()->selectedName()));
    }
    QStringList planted = record["planted"].toObject().keys();
    odd.sort();
    planted.sort();
    QCOMPARE(odd, planted);
    QVERIFY2(st.data(Qt::ToolTipRole).toString().contains(QString("%1 instances differ").arg(planted.size())),
             qPrintable(st.data(Qt::ToolTipRole).toString()));

    // The selector: the first op of blocks.2 in all eight instances; choosing blocks.7's selects it.
    const ir::Node* add = first_op_in(stack[2].toArray()[0].toString());
    QVERIFY(add);
    const QStringList modules = select_and_list(add);
    QCOMPARE(modules.size(), stack.size());
    for (int i = 0; i < stack.size(); ++i) QVERIFY2(inside(modules[i], stack[i].toArray()[0].toString()), qPrintable(modules.join(' ')));
    QComboBox* box = panel()->instanceBox();
    QVERIFY(box->isEnabled());
    QCOMPARE(module_of(window_->programModel()->node(box->currentData(ui::NodeNameRole).toString())), modules[2]);
    box->setCurrentIndex(box->count() - 1);
    emit box->activated(box->count() - 1);
    const ir::Node* chosen = window_->programModel()->selectedNode();
    QVERIFY(chosen && inside(module_of(chosen), last) && chosen->target == add->target);

    raise_dock();
    panel()->tree()->scrollTo(st);
    save_screenshot(window_.get(), QStringLiteral("structure_odd_instances.png"), QSize(800, 500));
  }

  void marks_instances_on_the_canvas() {
    open("odd_blocks");
    auto* marks = window_->findChild<ui::StackMarks*>(QStringLiteral("stackMarks"));
    QVERIFY(marks);
    ui::GraphScene* scene = window_->graphScene();
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 60000);
    const auto record = structure_record("odd_blocks");
    const auto planted = record["planted"].toObject();
    const auto* h = scene->hierarchy();
    QVERIFY(h);
    const auto instances = record["expected_stacks"].toArray()[0].toObject()["instances"].toArray();
    // The stack is drawn as one box (test_canvas_stacks); Show All Instances draws each with its badge.
    const int first = h->find_path(instances[0].toArray()[0].toString().toStdString());
    QTRY_VERIFY_WITH_TIMEOUT(scene->runOf(first) >= 0, 60000);
    scene->setRunFolded(scene->runOf(first), false);
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 60000);
    QCoreApplication::processEvents();
    int drawn = 0;
    const auto badges = marks->badges();
    for (int i = 0; i < instances.size(); ++i) {
      const QString path = instances[i].toArray()[0].toString();
      const int sc = h->find_path(path.toStdString());
      QVERIFY(sc > 0);
      if (!scene->scopeItem(sc) && !scene->clusterItem(sc)) continue;
      ++drawn;
      const QString want = (planted.contains(path) ? "! " : "") + QString("%1/%2").arg(i + 1).arg(instances.size());
      QCOMPARE(badges.value(sc), want);
    }
    QVERIFY2(drawn == instances.size(), "every block is drawn when the stack is shown whole");
    QCOMPARE(int(badges.size()), drawn);
    // The first op of blocks.2: its counterpart in every other block is ringed, drawn or boxed.
    const ir::Node* add = first_op_in(instances[2].toArray()[0].toString());
    QVERIFY(add);
    window_->programModel()->selectNode(QString::fromStdString(add->name));
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 60000);
    QCoreApplication::processEvents();
    QCOMPARE(int(marks->ringedNodes().size() + marks->ringedScopes().size()), int(instances.size() - 1));
    save_screenshot(window_.get(), QStringLiteral("structure_canvas_badges.png"), QSize(800, 500));
  }

  // Stages each built with another depth and width: no badge, no odd row, the settings in the note.
  void names_the_settings_of_varied_stages() {
    open("varied_stages");
    const auto settings = structure_record("varied_stages")["settings"].toObject()["stages"].toObject();
    const Model* m = panel()->model();
    QModelIndex st;
    std::function<void(const QModelIndex&)> find = [&](const QModelIndex& parent) {
      for (int r = 0; r < m->rowCount(parent) && !st.isValid(); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (i.data(Model::KindRole).toInt() == int(Model::Kind::Stack) && i.data().toString().contains(" × VariedStage"))
          st = i;
        else
          find(i);
      }
    };
    find({});
    QVERIFY(st.isValid());
    QVERIFY(st.data(Qt::DecorationRole).value<QIcon>().isNull());
    for (int r = 0; r < m->rowCount(st); ++r) QVERIFY(m->index(r, 0, st).data(Model::KindRole).toInt() != int(Model::Kind::Odd));
    const QString note = m->index(st.row(), Model::Note, st.parent()).data().toString();
    QStringList widths, depths;
    for (const auto& w : settings["width"].toArray()) widths << w.toString();
    for (const auto& d : settings["depth"].toArray()) depths << d.toString();
    QVERIFY2(note.contains("width " + widths.join(QChar(0xB7))) && note.contains("depth " + depths.join(QChar(0xB7))),
             qPrintable(note));
    QVERIFY2(st.data(Qt::ToolTipRole).toString().contains("other settings"), qPrintable(st.data(Qt::ToolTipRole).toString()));
    raise_dock();
    panel()->tree()->expand(st.parent());
    panel()->tree()->scrollTo(st);
    save_screenshot(window_.get(), QStringLiteral("structure_varied_settings.png"), QSize(800, 500));
  }

  // A real model: timm's Swin, whose four stages are one class built with other widths (and a
  // downsample in all but the first). The stack names them and flags none; nothing in the model is flagged.
  void names_the_settings_of_a_real_models_stages() {
    const QString file = QStringLiteral(EXPORTLENS_CORPUS "/timm_swin/program.pt2");
    QVERIFY2(QFileInfo::exists(file), qPrintable(file + " is missing (build the corpus_fixtures target)"));
    ui::StructurePanel* p = panel();
    QSignalSpy analysed(p, &ui::StructurePanel::analysed);
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(file);
    QVERIFY(shown.wait(120000));
    QVERIFY(QTest::qWaitFor([&] { return !analysed.isEmpty() && p->model()->snapshot() && !p->isBusy(); }, 120000));
    const auto& s = p->model()->snapshot()->structure;
    QVERIFY2(s.odd.empty(), "an instance of timm's Swin is flagged");
    const Model* m = p->model();
    QModelIndex st;
    std::function<void(const QModelIndex&)> find = [&](const QModelIndex& parent) {
      for (int r = 0; r < m->rowCount(parent) && !st.isValid(); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (i.data().toString().startsWith("4 × SwinTransformerStage")) st = i;
        else find(i);
      }
    };
    find({});
    QVERIFY(st.isValid());
    QVERIFY(st.data(Qt::DecorationRole).value<QIcon>().isNull());
    const QString note = m->index(st.row(), Model::Note, st.parent()).data().toString();
    QVERIFY2(note.startsWith("width ") && note.contains("downsample PatchMerging in"), qPrintable(note));
    raise_dock();
    panel()->tree()->expand(st.parent());
    panel()->tree()->scrollTo(st);
    save_screenshot(window_.get(), QStringLiteral("structure_real_model_settings.png"), QSize(1000, 600));
  }

  void folds_a_nested_stack_and_links_every_instance() {
    open("nested_stages");
    const auto record = structure_record("nested_stages");
    // The stages' count times the blocks' count of each: from the model's own table.
    int stages = 0, blocks = 0;
    for (const auto& s : record["expected_stacks"].toArray()) {
      const auto stack = s.toObject();
      if (stack["parent"].toString().isEmpty()) stages = stack["instances"].toArray().size();
      else blocks = stack["instances"].toArray().size();
    }
    QVERIFY(stages > 1 && blocks > 1);
    const QModelIndex st = root_stack();
    QVERIFY(st.isValid());
    QVERIFY(st.data().toString().startsWith(QString("%1 × Stage (").arg(stages)));
    QVERIFY(st.data(Qt::DecorationRole).value<QIcon>().isNull());  // identical: no badge
    // Below it, the representative stage's own stack of blocks.
    const Model* m = panel()->model();
    bool inner = false;
    for (int r = 0; r < m->rowCount(st); ++r)
      inner = inner || m->index(r, 0, st).data().toString().startsWith(QString("%1 × ConvBlock (").arg(blocks));
    QVERIFY(inner);
    const ir::Node* conv = first_op_in("stages.0.blocks.1");
    QVERIFY(conv);
    const QStringList modules = select_and_list(conv);
    QCOMPARE(modules.size(), stages * blocks);
    QCOMPARE(QSet<QString>(modules.begin(), modules.end()).size(), stages * blocks);

    raise_dock();
    save_screenshot(window_.get(), QStringLiteral("structure_folded_stack.png"), QSize(800, 500));
  }
};

QTEST_MAIN(TestStructurePanel)
#include "test_structure_panel.moc"

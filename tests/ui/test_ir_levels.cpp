// The IR levels in the window, against torch: switching Training /
// Functional / Core ATen / Core with a custom table shows torch's op lists
// (decomp.json, from ep.run_decompositions), a linear node expands to
// permute + addmm, a provenance step selects its origin at its level, the
// histogram counts what torch's programs call, the side-by-side view links
// corresponding nodes, a lowering that fails leaves the window as it was, and
// a file `exportlens decompose --out` wrote is named as what it holds (its
// first entry, in the switch, histogram, provenance and Compare levels).
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <memory>
#include <stdexcept>

#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "engine/passes/op_call.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/levels/expansion_item.h"
#include "ui/levels/histogram_model.h"
#include "ui/levels/histogram_panel.h"
#include "ui/levels/ir_level_controller.h"
#include "ui/levels/ir_levels_ui.h"
#include "ui/levels/level_inspector_panel.h"
#include "ui/program_views/code_view.h"
#include "support/fixtures.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_model.h"
#include "ui/levels/node_expander.h"
#include "ui/levels/compare_levels_view.h"
#include "ui/shell/main_window.h"
#include "support/exportlens_process.h"
#include "support/screenshot.h"

using namespace exportlens;
using ui::LevelChoice;
using ui::MainWindow;

namespace {

using testing::fixture_file;

const QString kFailingTable = QStringLiteral("test_failing_relu");

QJsonObject decomp_oracle(const QString& fixture) {
  return testing::read_json(fixture_file(fixture, QStringLiteral("decomp.json")));
}

QStringList oracle_ops(const QJsonObject& level) {
  QStringList out;
  for (const QJsonValue& v : level.value(QStringLiteral("ops")).toArray()) out.append(v.toString());
  return out;
}

// The ops torch printed for the exported program (print.txt): the training level's oracle.
QStringList printed_ops(const QString& fixture) {
  QFile f(fixture_file(fixture, QStringLiteral("print.txt")));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QStringList out;
  static const QRegularExpression call(QStringLiteral("= torch\\.ops\\.([A-Za-z0-9_.]+)\\("));
  for (auto it = call.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();) out.append(it.next().captured(1));
  return out;
}

// A node's op as decomp.json names it.
QString oracle_name(const ir::Node& node) {
  if (node.target.is_getitem()) return QStringLiteral("<built-in function getitem>");
  return QString::fromStdString(passes::op_key(node.target));
}

QStringList program_ops(const ir::ExportedProgram& program) {
  QStringList out;
  for (const ir::Node* node : program.graph().nodes())
    if (node->op == ir::OpKind::CallFunction) out.append(oracle_name(*node));
  return out;
}

QMap<QString, int> counts(const QStringList& ops) {
  QMap<QString, int> out;
  for (const QString& op : ops) ++out[op];
  return out;
}

QPalette dark_palette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(45, 47, 52));
  p.setColor(QPalette::WindowText, QColor(225, 228, 232));
  p.setColor(QPalette::Base, QColor(32, 34, 38));
  p.setColor(QPalette::AlternateBase, QColor(40, 42, 47));
  p.setColor(QPalette::Text, QColor(225, 228, 232));
  p.setColor(QPalette::PlaceholderText, QColor(150, 155, 162));
  p.setColor(QPalette::Button, QColor(52, 54, 60));
  p.setColor(QPalette::ButtonText, QColor(225, 228, 232));
  p.setColor(QPalette::Highlight, QColor(61, 142, 230));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  return p;
}

// The histogram's count of an op as decomp.json names it (the histogram keys getitem by its Python path).
int histogram_count(const ui::HistogramModel& model, const QString& oracle_op, int level) {
  if (oracle_op != QStringLiteral("<built-in function getitem>")) return model.count(oracle_op, level);
  return model.count(QStringLiteral("_operator.getitem"), level) + model.count(QStringLiteral("operator.getitem"), level);
}

// A table whose relu rule throws what no rule should: lowering with it fails.
void register_failing_table() {
  passes::DecompositionTable table(kFailingTable.toStdString(), "a rule that fails (test)");
  table.set({"aten.relu.default", "test", "", [](passes::Rewriter&, const passes::OpCall&) -> ir::Argument {
               throw std::runtime_error("relu refuses to lower (test table)");
             }});
  passes::register_decomposition_table(std::move(table));
}

}  // namespace

class TestIrLevels : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  ui::IrLevelsUi* levels() const { return window_->irLevels(); }
  ui::IrLevelController* controller() const { return levels()->controller(); }

  bool open_and_wait(const QString& fixture) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(fixture_file(fixture, QStringLiteral("program.pt2")));
    return shown.wait(60000);
  }

  QAction* level_action(const LevelChoice& choice) const {
    for (QAction* action : levels()->levelActions())
      if (action->data().toString() == choice.key()) return action;
    return nullptr;
  }

  // Switches through the View menu's action and waits until the window shows the level.
  bool switch_and_wait(const LevelChoice& choice) {
    QAction* action = level_action(choice);
    if (!action) return false;
    QSignalSpy changed(controller(), &ui::IrLevelController::currentChanged);
    action->trigger();
    if (changed.isEmpty() && !changed.wait(60000)) return false;
    return controller()->current() == choice && window_->programModel()->loaded() == controller()->currentProgram();
  }

  // The Compare levels tab, the opened program on the left and Core ATen on
  // the right, once both are laid out; null if they are not within 30 s.
  ui::CompareLevelsView* compare_opened_with_core() {
    ui::CompareLevelsView* compare = levels()->compareView();
    window_->centralTabs()->setCurrentWidget(compare);
    compare->setLevel(ui::SideBySideView::Left, LevelChoice::training());
    compare->setLevel(ui::SideBySideView::Right, LevelChoice::core());
    const bool ready = QTest::qWaitFor(
        [&] { return compare->program(ui::SideBySideView::Left) && compare->program(ui::SideBySideView::Right); }, 30000);
    return ready ? compare : nullptr;
  }

  // The window shows `ops` everywhere: model, canvas, code.
  void verify_shown_ops(const QStringList& expected) {
    const ir::ExportedProgram* program = window_->programModel()->program();
    QVERIFY(program);
    QCOMPARE(program_ops(*program), expected);
    // Small programs open fully expanded, weights folded into their users.
    QCOMPARE(window_->graphScene()->nodeItems().size(),
             int(program->graph().size() - window_->programModel()->loaded()->weights->folded_count()));
    const QString code = window_->codeView()->toPlainText();
    for (const QString& op : expected)
      if (!op.startsWith(QLatin1Char('<'))) QVERIFY2(code.contains(op), qPrintable(op));
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensIrLevelsTest"));
    register_failing_table();
    for (const QString fixture : {QStringLiteral("book_mlp"), QStringLiteral("decomp_example")})
      QVERIFY2(QFile::exists(fixture_file(fixture, QStringLiteral("decomp.json"))), qPrintable(fixture));
    window_ = std::make_unique<MainWindow>();
    window_->resize(1500, 920);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(open_and_wait(QStringLiteral("book_mlp")));
  }

  void switchOffersEveryRegisteredTable() {
    QComboBox* box = levels()->levelBox();
    QStringList labels;
    for (int i = 0; i < box->count(); ++i) labels.append(box->itemText(i));
    QCOMPARE(labels.mid(0, 3), (QStringList{"Training", "Functional", "Core ATen"}));
    QVERIFY(labels.contains(QStringLiteral("Core (double_conv2d)")));
    QVERIFY(labels.contains(QStringLiteral("Core (%1)").arg(kFailingTable)));
    QCOMPARE(level_action(LevelChoice::functional())->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_2));
    QCOMPARE(level_action(LevelChoice::core())->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_3));
    QCOMPARE(box->currentText(), QStringLiteral("Training"));
    // The shortcut itself, typed into the window.
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    QSignalSpy changed(controller(), &ui::IrLevelController::currentChanged);
    QTest::keySequence(window_.get(), QKeySequence(Qt::CTRL | Qt::Key_2));
    QVERIFY(changed.count() > 0 || changed.wait(60000));
    QCOMPARE(controller()->current(), LevelChoice::functional());
    QCOMPARE(box->currentText(), QStringLiteral("Functional"));
    QTest::keySequence(window_.get(), QKeySequence(Qt::CTRL | Qt::Key_1));
    QCOMPARE(controller()->current(), LevelChoice::training());  // shown before: at once
  }

  void levelsShowTorchsOps() {
    const QJsonObject oracle = decomp_oracle(QStringLiteral("book_mlp"));
    verify_shown_ops(printed_ops(QStringLiteral("book_mlp")));
    QVERIFY(switch_and_wait(LevelChoice::functional()));
    verify_shown_ops(oracle_ops(oracle.value(QStringLiteral("functional")).toObject()));
    QCOMPARE(levels()->levelBox()->currentText(), QStringLiteral("Functional"));
    QVERIFY(switch_and_wait(LevelChoice::core()));
    verify_shown_ops(oracle_ops(oracle.value(QStringLiteral("core")).toObject()));
    QVERIFY(level_action(LevelChoice::core())->isChecked());
    QVERIFY(window_->graphScene()->nodeItem(QStringLiteral("addmm")));
    QVERIFY(switch_and_wait(LevelChoice::training()));
    verify_shown_ops(printed_ops(QStringLiteral("book_mlp")));
  }

  void expandLinearShowsPermuteAddmm() {
    QVERIFY(switch_and_wait(LevelChoice::training()));
    ui::NodeExpander* expander = levels()->expander();
    // From the node's context menu.
    std::unique_ptr<QMenu> menu(levels()->nodeMenu(QStringLiteral("linear")));
    QAction* expand = nullptr;
    for (QAction* action : menu->actions())
      if (action->text() == QStringLiteral("Expand Decomposition")) expand = action;
    QVERIFY(expand && expand->isEnabled());
    QSignalSpy expanded(expander, &ui::NodeExpander::expanded);
    expand->trigger();
    QVERIFY(expanded.wait(30000));
    ui::ExpansionItem* item = expander->item(QStringLiteral("linear"));
    QVERIFY(item);
    QCOMPARE(item->ops(), (QStringList{"aten.permute.default", "aten.addmm.default"}));
    // torch lowers this linear to the same ops (the first two of its core program).
    const QStringList core = oracle_ops(decomp_oracle(QStringLiteral("book_mlp")).value(QStringLiteral("core")).toObject());
    QCOMPARE(core.mid(0, 2), item->ops());
    QVERIFY(item->nonCoreOps().isEmpty());  // all the way down to Core ATen
    // Drawn: the two op boxes (plus its inputs and output) inside the callout.
    QStringList drawn;
    for (QGraphicsItem* child : item->childItems())
      if (child->type() == ui::NodeItem::Type && child->isVisible())
        drawn.append(static_cast<ui::NodeItem*>(child)->nodeName());
    QVERIFY2(drawn.contains(QStringLiteral("permute")) && drawn.contains(QStringLiteral("addmm")),
             qPrintable(drawn.join(',')));
    QVERIFY(item->headerText().contains(QStringLiteral("permute")));
    // Collapsible: the header alone, then back.
    const QRectF open = item->frame();
    item->setCollapsed(true);
    QVERIFY(item->frame().height() < open.height() / 2);
    for (QGraphicsItem* child : item->childItems()) QVERIFY(!child->isVisible());
    item->setCollapsed(false);
    QCOMPARE(item->frame(), open);
    // From the inspector's button, for the other linear.
    window_->programModel()->selectNode(QStringLiteral("linear_1"));
    QPushButton* button = levels()->inspectorPanel()->expandButton();
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(expanded.wait(30000));
    QVERIFY(expander->item(QStringLiteral("linear_1")));
    QCOMPARE(expander->item(QStringLiteral("linear_1"))->ops(), item->ops());
    // A placeholder is no op call: nothing to expand.
    window_->programModel()->selectNode(QStringLiteral("x"));
    QVERIFY(!button->isEnabled());
  }

  void provenanceStepSelectsOrigin() {
    QVERIFY(switch_and_wait(LevelChoice::core()));
    window_->programModel()->selectNode(QStringLiteral("addmm_1"));
    ui::LevelInspectorPanel* panel = levels()->inspectorPanel();
    const auto& chain = panel->model()->chain();
    QCOMPARE(chain.size(), 3);
    QCOMPARE(chain[0].level, LevelChoice::core());
    QCOMPARE(chain[0].node, QStringLiteral("addmm_1"));
    QCOMPARE(chain[1].level, LevelChoice::functional());
    QCOMPARE(chain[1].node, QStringLiteral("linear_1"));
    QCOMPARE(chain[1].op, QStringLiteral("aten.linear.default"));
    QCOMPARE(chain[2].level, LevelChoice::training());
    QCOMPARE(chain[2].node, QStringLiteral("linear_1"));
    // The source line torch printed for the exported node: linear.py:134.
    QVERIFY2(chain[2].source.startsWith(QStringLiteral("linear.py:")), qPrintable(chain[2].source));
    QFile printed(fixture_file(QStringLiteral("book_mlp"), QStringLiteral("print.txt")));
    QVERIFY(printed.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(printed.readAll()).contains(chain[2].source + QStringLiteral(" in forward")));
    // Clicking the training step shows the training program with its linear_1 selected.
    QTableView* table = panel->table();
    window_->raise();
    QSignalSpy changed(controller(), &ui::IrLevelController::currentChanged);
    const QRect cell = table->visualRect(panel->model()->index(2, ui::ProvenanceModel::Node));
    QVERIFY(cell.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QVERIFY(changed.count() > 0 || changed.wait(30000));
    QCOMPARE(controller()->current(), LevelChoice::training());
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("linear_1"));
    QCOMPARE(levels()->levelBox()->currentText(), QStringLiteral("Training"));
    QVERIFY(window_->graphScene()->nodeItem(QStringLiteral("linear_1"))->isSelected());
    // A training node is its own origin: one row.
    QCOMPARE(panel->model()->rowCount(), 1);
    // Switching down keeps the node in view: linear_1 becomes addmm_1.
    QVERIFY(switch_and_wait(LevelChoice::core()));
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("addmm_1"));
  }

  // Switching the level keeps the user's place: the module opened (found by
  // its path at the other level), the others as they were, and the selection
  // as what it became, drawn and selected.
  void levelSwitchKeepsOpenModulesAndSelection() {
    QVERIFY(switch_and_wait(LevelChoice::training()));
    ui::GraphScene* scene = window_->graphScene();
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 30000);
    const ir::ModuleHierarchy* h = scene->hierarchy();
    QVERIFY(h);
    int opened = -1;  // the last top-level module with an op inside
    for (int s = ir::ModuleHierarchy::kRoot + 1; s < int(h->size()); ++s)
      if ((*h)[s].parent == ir::ModuleHierarchy::kRoot && !h->nodes_within(s).empty()) opened = s;
    QVERIFY(opened > 0);
    scene->collapseAll();
    scene->setExpanded(opened, true);
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 30000);
    const ir::Node* inside = nullptr;
    for (int n : h->nodes_within(opened))
      if (!inside && scene->program()->graph().nodes()[size_t(n)]->op == ir::OpKind::CallFunction)
        inside = scene->program()->graph().nodes()[size_t(n)];
    QVERIFY(inside);
    window_->programModel()->selectNode(QString::fromStdString(inside->name));
    const std::string path = (*h)[opened].path;

    QVERIFY(switch_and_wait(LevelChoice::core()));
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 30000);
    const ir::ModuleHierarchy* core = scene->hierarchy();
    const int same = core->find_path(path);
    QVERIFY2(same > 0, path.c_str());
    QVERIFY(scene->expansion().is_expanded(same));
    for (int s = ir::ModuleHierarchy::kRoot + 1; s < int(core->size()); ++s)
      if ((*core)[s].parent == ir::ModuleHierarchy::kRoot && s != same) QVERIFY2(!scene->expansion().is_expanded(s), (*core)[s].path.c_str());
    const QString selected = window_->programModel()->selectedName();
    QVERIFY(!selected.isEmpty());
    QVERIFY(scene->moduleOf(selected) >= 0 && core->encloses(same, scene->moduleOf(selected)));
    QTRY_VERIFY_WITH_TIMEOUT(scene->nodeItem(selected) && scene->nodeItem(selected)->isSelected(), 30000);
    // A new file opens as it opens, not where the last one was left.
    QVERIFY(open_and_wait(QStringLiteral("book_mlp")));
    QCOMPARE(scene->expansion(), scene->program()->opening);
    QVERIFY(window_->programModel()->selectedName().isEmpty());
  }

  void histogramCountsTorchsOps() {
    ui::HistogramPanel* panel = levels()->histogramPanel();
    levels()->histogramDock()->show();
    levels()->histogramDock()->raise();
    panel->computeAll();
    ui::HistogramModel* model = panel->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->count(QStringLiteral("aten.addmm.default"), 2) >= 0, 30000);
    const QJsonObject oracle = decomp_oracle(QStringLiteral("book_mlp"));
    const QList<QMap<QString, int>> expected{counts(printed_ops(QStringLiteral("book_mlp"))),
                                            counts(oracle_ops(oracle.value(QStringLiteral("functional")).toObject())),
                                            counts(oracle_ops(oracle.value(QStringLiteral("core")).toObject()))};
    QSet<QString> ops;
    for (const auto& level : expected)
      for (auto it = level.begin(); it != level.end(); ++it) ops.insert(it.key());
    QCOMPARE(model->rowCount(), ops.size());
    for (const QString& op : ops)
      for (int level = 0; level < 3; ++level)
        QCOMPARE(histogram_count(*model, op, level), expected[level].value(op));
    QVERIFY(model->isNonCore(QStringLiteral("aten.linear.default")));
    QVERIFY(!model->isNonCore(QStringLiteral("aten.addmm.default")));
    const int row = model->rowOf(QStringLiteral("aten.linear.default"));
    QCOMPARE(model->index(row, model->flagColumn()).data().toString(), QStringLiteral("non-core"));
  }

  void sideBySideLinksCorrespondingNodes() {
    ui::CompareLevelsView* compare = compare_opened_with_core();
    QVERIFY(compare);
    compare->selectNode(ui::SideBySideView::Left, QStringLiteral("linear"));
    QCOMPARE(compare->selectedNodes(ui::SideBySideView::Right), (QStringList{"addmm", "permute"}));
    compare->selectNode(ui::SideBySideView::Right, QStringLiteral("permute_1"));
    QCOMPARE(compare->selectedNodes(ui::SideBySideView::Left), QStringList{"linear_1"});
    // By a click on the canvas, too.
    ui::GraphView* view = compare->view(ui::SideBySideView::Right);
    ui::NodeItem* relu = compare->scene(ui::SideBySideView::Right)->nodeItem(QStringLiteral("relu"));
    QVERIFY(relu);
    view->reveal(relu->box());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, view->mapFromScene(relu->box().center()));
    QCOMPARE(compare->selectedNodes(ui::SideBySideView::Left), QStringList{"relu"});
    window_->centralTabs()->setCurrentWidget(window_->graphView());
  }

  void screenshots() {
    // Core ATen with a node's provenance and a training linear expanded.
    QVERIFY(switch_and_wait(LevelChoice::training()));
    QSignalSpy expanded(levels()->expander(), &ui::NodeExpander::expanded);
    levels()->expander()->expand(QStringLiteral("linear"));
    QVERIFY(expanded.count() > 0 || expanded.wait(30000));
    window_->programModel()->selectNode(QStringLiteral("linear"));
    window_->graphView()->fitAll();
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("ir_expand_linear.png"));
    const QPalette light = QApplication::palette();
    QApplication::setPalette(dark_palette());
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("ir_expand_linear_dark.png"));
    QApplication::setPalette(light);
    QVERIFY(switch_and_wait(LevelChoice::core()));
    window_->programModel()->selectNode(QStringLiteral("addmm"));
    levels()->histogramDock()->raise();
    window_->graphView()->fitAll();
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("ir_core_provenance.png"));
    window_->centralTabs()->setCurrentWidget(levels()->compareView());
    levels()->compareView()->selectNode(ui::SideBySideView::Left, QStringLiteral("linear"));
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("ir_compare.png"));
    window_->centralTabs()->setCurrentWidget(window_->graphView());
  }

  void failedLoweringKeepsTheWindow() {
    QVERIFY(switch_and_wait(LevelChoice::functional()));
    const auto shown = window_->programModel()->loaded();
    QSignalSpy failed(controller(), &ui::IrLevelController::failed);
    level_action(LevelChoice::core(kFailingTable))->trigger();
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("relu refuses to lower")));
    QCOMPARE(window_->programModel()->loaded(), shown);
    QCOMPARE(controller()->current(), LevelChoice::functional());
    QCOMPARE(levels()->levelBox()->currentText(), QStringLiteral("Functional"));
    QVERIFY(window_->statusText().contains(QStringLiteral("Could not lower")));
    auto* box = window_->findChild<QMessageBox*>(QStringLiteral("levelErrorBox"));
    QVERIFY(box);
    QVERIFY(box->informativeText().contains(QStringLiteral("relu refuses to lower")));
    box->close();
    // Still works: another level after the failure.
    QVERIFY(switch_and_wait(LevelChoice::core()));
  }

  void cancellingALoweringKeepsTheLevel() {
    QVERIFY(switch_and_wait(LevelChoice::functional()));
    const auto shown = window_->programModel()->loaded();
    const LevelChoice custom = LevelChoice::core(QStringLiteral("double_conv2d"));
    QVERIFY(!controller()->shown(custom));  // not lowered yet: a worker job
    QSignalSpy cancelled(controller(), &ui::IrLevelController::cancelled);
    level_action(custom)->trigger();
    auto* cancel = window_->findChild<QPushButton*>(QStringLiteral("levelCancelButton"));
    QVERIFY(cancel && cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(cancelled.size(), 1);
    QVERIFY(!cancel->isVisible());
    QTest::qWait(300);  // the abandoned job ends and is dropped
    QCOMPARE(window_->programModel()->loaded(), shown);
    QCOMPARE(controller()->current(), LevelChoice::functional());
    QCOMPARE(levels()->levelBox()->currentText(), QStringLiteral("Functional"));
    // Asked again, it lowers: book_mlp has no conv2d, so the table lowers it as the core one does.
    QVERIFY(switch_and_wait(custom));
    verify_shown_ops(oracle_ops(decomp_oracle(QStringLiteral("book_mlp")).value(QStringLiteral("core")).toObject()));
  }

  // Torch's Core ATen lowering keeps some ops outside the Core ATen op list
  // (the MoE routing's histc, a windowed transformer's roll): such a file
  // saved at Core ATen is named Core ATen, as the Core ATen table lowers none
  // of its ops.
  void savedCoreFileWithTorchsKeptOpsIsCoreAten() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString file = tmp.filePath(QStringLiteral("mixtral_core.pt2"));
    const auto r = testing::run_exportlens(
        {"decompose", QStringLiteral(EXPORTLENS_CORPUS "/mixtral/program.pt2"), "--ir", "core", "--out", file});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(file);
    QVERIFY(shown.wait(60000));
    const ir::ExportedProgram* program = window_->programModel()->program();
    QVERIFY(program);
    QVERIFY(passes::non_core_ops(*program).count("aten.histc.default"));  // outside the list, as torch keeps it
    QCOMPARE(levels()->levelBox()->itemText(0), QStringLiteral("Core ATen (as saved)"));
  }

  // A program saved lowered (decompose --out, as torch's run_decompositions
  // then save: the ATEN dialect) is no training program: the first entry says
  // what the file holds, everywhere a level is named.
  void savedLoweredFileNamesItsLevel_data() {
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("label");
    QTest::newRow("core") << "core" << "Core ATen (as saved)";
    QTest::newRow("functional") << "functional" << "Functional (as saved)";
  }
  void savedLoweredFileNamesItsLevel() {
    QFETCH(QString, level);
    QFETCH(QString, label);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString file = tmp.filePath(QStringLiteral("book_mlp_%1.pt2").arg(level));
    const auto r = testing::run_exportlens(
        {"decompose", fixture_file(QStringLiteral("book_mlp"), QStringLiteral("program.pt2")), "--ir", level, "--out", file});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(file);
    QVERIFY(shown.wait(60000));
    // What the file holds: torch's lowering of book_mlp at that level, of the ATEN dialect.
    const ir::ExportedProgram* program = window_->programModel()->program();
    QVERIFY(program);
    QCOMPARE(program->verifiers, std::vector<std::string>{"ATEN"});
    verify_shown_ops(oracle_ops(decomp_oracle(QStringLiteral("book_mlp")).value(level).toObject()));
    // The switch and the View menu.
    QComboBox* box = levels()->levelBox();
    QCOMPARE(box->itemText(0), label);
    QCOMPARE(box->currentText(), label);
    QCOMPARE(box->itemText(1), QStringLiteral("Functional"));
    QCOMPARE(box->itemText(2), QStringLiteral("Core ATen"));
    QCOMPARE(level_action(LevelChoice::training())->text(), label);
    QCOMPARE(controller()->current().label(), label);
    QCOMPARE(window_->programModel()->level().label(), label);
    // The histogram's first column.
    ui::HistogramPanel* histogram = levels()->histogramPanel();
    histogram->computeAll();
    QCOMPARE(histogram->model()->headerData(1, Qt::Horizontal).toString(), label);
    // Provenance: a node lowered again from the file comes from the file's program.
    QVERIFY(switch_and_wait(LevelChoice::core()));
    window_->programModel()->selectNode(QStringLiteral("addmm"));
    const auto& chain = levels()->inspectorPanel()->model()->chain();
    QVERIFY(!chain.isEmpty());
    QCOMPARE(chain.constLast().level, LevelChoice::training());
    QCOMPARE(chain.constLast().level.label(), label);
    QCOMPARE(levels()->inspectorPanel()->model()->index(chain.size() - 1, ui::ProvenanceModel::Level).data().toString(),
             QStringLiteral("← ") + label);
    // Compare levels: both panes' first entry.
    ui::CompareLevelsView* compare = compare_opened_with_core();
    QVERIFY(compare);
    for (auto* pane : compare->findChildren<QComboBox*>()) QCOMPARE(pane->itemText(0), label);
    QCOMPARE(compare->level(ui::SideBySideView::Left).label(), label);
    window_->centralTabs()->setCurrentWidget(window_->graphView());
    if (level == QLatin1String("core")) {
      QVERIFY(switch_and_wait(LevelChoice::training()));
      levels()->histogramDock()->show();
      levels()->histogramDock()->raise();
      window_->programModel()->selectNode(QStringLiteral("addmm"));
      window_->graphView()->fitAll();
      QTest::qWait(50);
      testing::save_screenshot(window_.get(), QStringLiteral("ir_saved_core_file.png"));
    }
    // A training file again: its first entry is Training.
    QVERIFY(open_and_wait(QStringLiteral("book_mlp")));
    QCOMPARE(box->itemText(0), QStringLiteral("Training"));
    QCOMPARE(box->currentText(), QStringLiteral("Training"));
    QCOMPARE(level_action(LevelChoice::training())->text(), QStringLiteral("Training"));
  }

  void customTableMatchesTorch() {
    QVERIFY(open_and_wait(QStringLiteral("decomp_example")));
    QCOMPARE(controller()->current(), LevelChoice::training());
    const QJsonObject oracle = decomp_oracle(QStringLiteral("decomp_example"));
    // conv2d expands to what torch's core program calls for it: one convolution.
    const ir::Node* conv = nullptr;
    for (const ir::Node* node : window_->programModel()->program()->graph().nodes())
      if (oracle_name(*node) == QStringLiteral("aten.conv2d.default")) conv = node;
    QVERIFY(conv);
    QSignalSpy expanded(levels()->expander(), &ui::NodeExpander::expanded);
    levels()->expander()->expand(QString::fromStdString(conv->name));
    QVERIFY(expanded.wait(30000));
    const QStringList core = oracle_ops(oracle.value(QStringLiteral("core")).toObject());
    QCOMPARE(levels()->expander()->item(QString::fromStdString(conv->name))->ops(), core.mid(0, 1));
    QVERIFY(switch_and_wait(LevelChoice::core(QStringLiteral("double_conv2d"))));
    const QStringList custom =
        oracle_ops(oracle.value(QStringLiteral("custom")).toObject().value(QStringLiteral("double_conv2d")).toObject());
    verify_shown_ops(custom);
    // The histogram's core column follows the table: torch's counts for it.
    ui::HistogramPanel* histogram = levels()->histogramPanel();
    histogram->computeAll();
    ui::HistogramModel* model = histogram->model();
    QCOMPARE(model->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Core (double_conv2d)"));
    QTRY_VERIFY_WITH_TIMEOUT(model->count(QStringLiteral("aten.mul.Tensor"), 2) >= 0, 30000);
    const QMap<QString, int> expected = counts(custom);
    for (auto it = expected.begin(); it != expected.end(); ++it)
      QCOMPARE(histogram_count(*model, it.key(), 2), it.value());
    QCOMPARE(model->count(QStringLiteral("aten.conv2d.default"), 2), 0);
    QVERIFY(model->isNonCore(QStringLiteral("aten.conv2d.default")));
    QVERIFY(switch_and_wait(LevelChoice::core()));
    verify_shown_ops(oracle_ops(oracle.value(QStringLiteral("core")).toObject()));
    QVERIFY(switch_and_wait(LevelChoice::functional()));
    verify_shown_ops(oracle_ops(oracle.value(QStringLiteral("functional")).toObject()));
  }

  // A library of decomposition tables opened like a model library: its table
  // joins the switch and lowers as torch's lowering with the same table.
  void libraryTableJoinsTheSwitch() {
    QVERIFY(open_and_wait(QStringLiteral("decomp_example")));
    const LevelChoice mine = LevelChoice::core(QStringLiteral("my_double_conv2d"));
    QVERIFY(!level_action(mine));
    window_->openModelLibrary(QStringLiteral(EXPORTLENS_CUSTOM_TABLE_MODEL));
    QComboBox* box = levels()->levelBox();
    QVERIFY(box->findText(QStringLiteral("Core (my_double_conv2d)")) >= 0);
    QVERIFY(switch_and_wait(mine));
    verify_shown_ops(oracle_ops(decomp_oracle(QStringLiteral("decomp_example"))
                                    .value(QStringLiteral("custom"))
                                    .toObject()
                                    .value(QStringLiteral("double_conv2d"))
                                    .toObject()));
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestIrLevels)
#include "test_ir_levels.moc"

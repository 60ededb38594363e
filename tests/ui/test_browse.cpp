// Browsing real-size programs in the window (oracle/browse_models.py: a deep
// transformer stack and a CNN of nested blocks, exported by real torch):
// the program opens collapsed at the depth that draws about 150 items (counted
// here from torch's own module record), opening a box shows its parts and
// lays out only its level and the ones around it, everything that selects a
// node reveals it (Find, the signature, Compare levels), weights are folded
// into their users and listed in the inspector, the Modules dock follows the
// canvas both ways, the same at the Core ATen level, and opening a file reads
// none of its weights until a run does. Screenshots for the README.
#include <QtTest>

#include <QAction>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

#include <map>
#include <memory>
#include <set>

#include "support/browse_fixtures.h"
#include "support/fixtures.h"
#include "support/screenshot.h"
#include "ui/canvas/breadcrumb_bar.h"
#include "ui/canvas/cluster_item.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/minimap.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/program_model.h"
#include "ui/levels/compare_levels_view.h"
#include "ui/levels/histogram_panel.h"
#include "ui/levels/ir_level_controller.h"
#include "ui/levels/ir_levels_ui.h"
#include "ui/program_views/find_bar.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/program_views/module_tree_model.h"
#include "ui/program_views/modules_panel.h"
#include "ui/run/run_settings.h"
#include "ui/run/run_worker.h"
#include "ui/shell/main_window.h"

using namespace exportlens;
namespace {
QString browse_fixture(const QString& name, const QString& file) {
  return QString::fromStdString(exportlens::testing::browse_fixture(name.toStdString(), file.toStdString()));
}
/// torch's record of one program's module calls, in Qt's JSON.
QJsonObject browse_hierarchy(const QString& name) {
  return exportlens::testing::read_json(browse_fixture(name, QStringLiteral("hierarchy.json")));
}
}  // namespace
using ui::LevelChoice;
using ui::MainWindow;

namespace {

// What torch's record says a view opened to `depth` draws: every module call
// down to depth + 1 (open ones as frames, the deepest as boxes) and the nodes
// directly in the open ones and the root, weights folded away; a call that
// holds a single node (and no drawn call) is not drawn, its node counts in
// the call around it.
int torch_items_at(const QJsonObject& level, int weights, int depth) {
  const QJsonArray scopes = level["scopes"].toArray();
  const int n = int(scopes.size());
  std::vector<int> parent(n, -1), direct(n, 0), drawn_children(n, 0);
  std::vector<bool> drawn(n, true);
  int root_direct = level["nodes"].toInt() - weights;
  for (int i = 0; i < n; ++i) {
    const QJsonObject s = scopes[i].toObject();
    direct[i] += s["nodes"].toInt();
    const QJsonArray chain = s["chain"].toArray();
    for (int k = 0; k < i && chain.size() > 1; ++k) {
      QJsonArray up = chain;
      up.removeLast();
      if (scopes[k].toObject()["chain"].toArray() == up) parent[i] = k;
    }
    if (parent[i] >= 0) direct[parent[i]] -= s["nodes"].toInt();
    else root_direct -= s["nodes"].toInt();
  }
  for (int i = n; i-- > 0;) {
    if (drawn_children[i] == 0 && direct[i] <= 1) {
      drawn[i] = false;
      (parent[i] >= 0 ? direct[parent[i]] : root_direct) += direct[i];
    } else if (parent[i] >= 0) {
      ++drawn_children[parent[i]];
    }
  }
  int items = root_direct;
  for (int i = 0; i < n; ++i) {
    if (!drawn[i]) continue;
    const int d = scopes[i].toObject()["depth"].toInt();
    if (d <= depth + 1) ++items;
    if (d <= depth) items += direct[i];
  }
  return items;
}

int torch_max_depth(const QJsonObject& level) {
  int depth = 0;
  for (const auto& v : level["scopes"].toArray()) depth = std::max(depth, v.toObject()["depth"].toInt());
  return depth;
}

// The depth the window should open at: the deepest that draws at most 150 items.
int expected_depth(const QJsonObject& level, int weights) {
  int depth = 0;
  for (int d = 1; d <= torch_max_depth(level); ++d)
    if (torch_items_at(level, weights, d) <= 150) depth = d;
  return depth;
}

}  // namespace

class TestBrowse : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  ui::GraphScene* scene() const { return window_->graphScene(); }
  ui::GraphView* view() const { return window_->graphView(); }
  const ir::ModuleHierarchy& hierarchy() const { return *window_->programModel()->loaded()->hierarchy; }

  bool open_and_wait(const QString& fixture) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(browse_fixture(fixture, QStringLiteral("program.pt2")));
    return shown.wait(120000);
  }

  // Waits for the canvas's next picture (after a change that lays out again).
  bool wait_for_picture(QSignalSpy& spy) { return !spy.isEmpty() || spy.wait(60000); }

  // Switches the window to the Core ATen level and waits until it shows it.
  bool show_core_aten() {
    ui::IrLevelsUi* levels = window_->irLevels();
    QSignalSpy changed(levels->controller(), &ui::IrLevelController::currentChanged);
    levels->switchTo(LevelChoice::core());
    if (!changed.wait(120000)) return false;
    return QTest::qWaitFor([&] { return window_->programModel()->loaded() == levels->controller()->currentProgram(); });
  }

  // Opens everything, whether or not the program opened so already.
  bool expand_everything() {
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    scene()->expandToDepth(hierarchy().max_depth());
    return !scene()->isLayingOut() || wait_for_picture(picture);
  }

  int drawn_items() const {
    return int(scene()->nodeItems().size() + scene()->scopeItems().size() + scene()->clusterItems().size());
  }

  QString node_in(const QString& scope_path, const char* op) const {
    const ir::ModuleHierarchy& h = hierarchy();
    const int scope = h.find_path(scope_path.toStdString());
    const auto nodes = window_->programModel()->loaded()->graph().nodes();
    for (int n : h.nodes_within(scope))
      if (nodes[n]->op == ir::OpKind::CallFunction && nodes[n]->target.op_name() == op)
        return QString::fromStdString(nodes[n]->name);
    return {};
  }

  bool visible_in_view(const QRectF& box) const {
    return view()->mapToScene(view()->viewport()->rect()).boundingRect().contains(box);
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensBrowseTest"));
    window_ = std::make_unique<MainWindow>();
    // Browsing every module call: stacks drawn as one box are test_canvas_stacks's.
    window_->findChild<QAction*>(QStringLiteral("foldStacksAction"))->setChecked(false);
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void opens_collapsed_at_the_expected_depth_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("transformer_stack") << QStringLiteral("transformer_stack");
    QTest::newRow("nested_cnn") << QStringLiteral("nested_cnn");
  }

  void opens_collapsed_at_the_expected_depth() {
    QFETCH(QString, fixture);
    QVERIFY(open_and_wait(fixture));
    const QJsonObject torch = browse_hierarchy(fixture);
    const QJsonObject training = torch["training"].toObject();
    const int weights = int(torch["weights"].toObject().size());
    const int depth = expected_depth(training, weights);
    const ui::LoadedProgramPtr program = window_->programModel()->loaded();
    QCOMPARE(program->openingDepth, depth);
    QCOMPARE(drawn_items(), torch_items_at(training, weights, depth));
    QVERIFY(drawn_items() <= 150);
    QVERIFY(depth == torch_max_depth(training) || torch_items_at(training, weights, depth + 1) > 150);
    // No whole-graph layout: the open levels only, each once.
    QCOMPARE(program->openingPicture->levels_laid_out, program->openingPicture->levels_composed);
    QCOMPARE(program->openingPicture->levels_composed, size_t(scene()->clusterItems().size() + 1));
    // Collapsed boxes are the calls one level below the open ones, with their class and op count
    // (none when the whole program fits).
    QCOMPARE(scene()->scopeItems().isEmpty(), depth == torch_max_depth(training));
    for (ui::ScopeItem* box : scene()->scopeItems()) {
      const auto& scope = hierarchy()[box->scope()];
      QCOMPARE(scope.depth, depth + 1);
      QCOMPARE(box->text().title, QString::fromStdString(scope.class_name()));
      QVERIFY(box->text().detail.contains(QString::number(scope.op_count)));
    }
    // Weights are folded: no box for any of torch's parameters or buffers.
    const QJsonObject torch_weights = torch["weights"].toObject();
    for (auto it = torch_weights.begin(); it != torch_weights.end(); ++it)
      QVERIFY2(!scene()->nodeItem(it.key()), qPrintable(it.key()));
    // The first screen shows the inputs.
    QVERIFY(visible_in_view(scene()->nodeItem(QStringLiteral("x"))->box()));
    testing::save_screenshot(window_.get(), QStringLiteral("browse_%1_collapsed.png").arg(fixture));
  }

  void opening_a_box_shows_its_parts_and_lays_out_only_its_level() {
    QVERIFY(open_and_wait(QStringLiteral("transformer_stack")));
    const ir::ModuleHierarchy& h = hierarchy();
    ui::ScopeItem* box = nullptr;
    for (ui::ScopeItem* candidate : scene()->scopeItems())
      if (!h[candidate->scope()].children.empty() && (!box || candidate->scope() > box->scope())) box = candidate;
    QVERIFY(box);
    const int scope = box->scope();
    // Double-click it where it is on screen.
    view()->centerOn(box->box().center());
    const QPoint at = view()->mapFromScene(box->box().center());
    const QPointF before = view()->mapFromScene(box->box().topLeft());
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    QTest::mouseDClick(view()->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(wait_for_picture(picture));
    QVERIFY(!scene()->scopeItem(scope));
    ui::ClusterItem* frame = scene()->clusterItem(scope);
    QVERIFY(frame);
    const layout::ScopedLayoutEngine& engine = *window_->programModel()->loaded()->layouts;
    int child = -1;  // the first child drawn as a box of its own (a one-op module is drawn as its op)
    for (int c : h[scope].children) {
      QCOMPARE(bool(scene()->scopeItem(c)), engine.is_drawn(c));
      if (child < 0 && engine.is_drawn(c)) child = c;
    }
    QVERIFY(child > 0);
    // Laid out: that scope and the scopes around it, innermost first; nothing else.
    std::vector<int> path = h.path_to(scope);
    std::reverse(path.begin(), path.end());
    QCOMPARE(scene()->picture()->laid_out, path);
    // The box stays where the eye was: its frame starts where the box was.
    const QPointF after = view()->mapFromScene(frame->box().topLeft());
    QVERIFY2((after - before).manhattanLength() < 4, qPrintable(QStringLiteral("moved by %1, %2").arg(after.x() - before.x()).arg(after.y() - before.y())));

    // "+" on a selected child box opens it; "-" closes the scope around it.
    scene()->clearSelection();
    scene()->scopeItem(child)->setSelected(true);
    view()->setFocus();
    picture.clear();
    QTest::keyClick(view(), Qt::Key_Plus);
    QVERIFY(wait_for_picture(picture));
    QVERIFY(scene()->clusterItem(child));
    picture.clear();
    scene()->clearSelection();
    QTest::keyClick(view(), Qt::Key_Minus);  // nothing selected: one level shallower everywhere
    QVERIFY(wait_for_picture(picture));
    QVERIFY(!scene()->clusterItem(child));
    // Collapse All from the menu's action; the levels come from the cache.
    picture.clear();
    scene()->collapseAll();
    QVERIFY(wait_for_picture(picture));
    QCOMPARE(scene()->clusterItems().size(), qsizetype(0));
    QCOMPARE(int(scene()->scopeItems().size()),
             int(std::count_if(h.root().children.begin(), h.root().children.end(),
                               [&](int c) { return engine.is_drawn(c); })));
    // Expand all to the bottom: every node but the folded weights is drawn.
    picture.clear();
    scene()->expandToDepth(h.max_depth());
    QVERIFY(wait_for_picture(picture));
    const auto& folding = *window_->programModel()->loaded()->weights;
    QCOMPARE(int(scene()->nodeItems().size()), int(window_->programModel()->loaded()->graph().size() - folding.folded_count()));
    QCOMPARE(scene()->scopeItems().size(), qsizetype(0));
    view()->resetZoom();
    view()->scale(0.8, 0.8);
    view()->reveal(scene()->scopeRect(h.find_path("blocks.0")));
    testing::save_screenshot(window_.get(), QStringLiteral("browse_transformer_stack_expanded.png"));
  }

  void selecting_a_hidden_node_reveals_it() {
    QVERIFY(open_and_wait(QStringLiteral("transformer_stack")));
    const ir::ModuleHierarchy& h = hierarchy();
    // A node deep inside a closed box, found with Ctrl+F.
    const QString target = node_in(QStringLiteral("blocks.17.mlp.fc2"), "linear");
    QVERIFY(!target.isEmpty());
    QVERIFY(!scene()->nodeItem(target));
    auto* find = window_->findChild<ui::FindBar*>();
    QVERIFY(find);
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    find->activate();
    find->field()->setText(target);
    QTest::keyClick(find->field(), Qt::Key_Return);
    QVERIFY(wait_for_picture(picture));
    QTRY_VERIFY(scene()->nodeItem(target) && scene()->nodeItem(target)->isSelected());
    const int home = window_->programModel()->loaded()->layouts->home()[window_->programModel()->node(target)->index()];
    QVERIFY(h.encloses(h.find_path("blocks.17.mlp"), home));
    for (int s : h.path_to(home)) QVERIFY(scene()->expansion().is_expanded(s));
    QTRY_VERIFY(visible_in_view(scene()->nodeItem(target)->box()));
    find->field()->clear();
    // The breadcrumbs show its module path.
    QCOMPARE(view()->breadcrumbs()->crumbs(),
             (QStringList{"program", "blocks.17", "mlp", "fc2"}));

    // A weight selected in the signature: its user is revealed, the inspector shows the weight.
    picture.clear();
    scene()->collapseAll();
    QVERIFY(wait_for_picture(picture));
    const QString weight = QStringLiteral("p_blocks_9_attn_qkv_weight");
    QVERIFY(window_->programModel()->node(weight));
    picture.clear();
    window_->programModel()->selectNode(weight);
    QVERIFY(wait_for_picture(picture));
    const QString user = QString::fromStdString(window_->programModel()->node(weight)->users().front()->name);
    QTRY_VERIFY(scene()->nodeItem(user) && scene()->nodeItem(user)->isSelected());
    QVERIFY(window_->inspector()->plainText().contains(weight));

    // The op histogram: a row steps through its op's calls, each revealed.
    picture.clear();
    scene()->collapseAll();
    QVERIFY(wait_for_picture(picture));
    // The other levels' columns are lowered in the background (when the dock
    // shows); each that lands re-sorts the rows, so wait until they are all in
    // and find the row by its op at each step.
    ui::HistogramPanel* histogram = window_->irLevels()->histogramPanel();
    ui::IrLevelController* levels = window_->irLevels()->controller();
    QSignalSpy idle(levels, &ui::IrLevelController::idle);
    histogram->computeAll();
    QVERIFY(!levels->isBusy() || idle.wait(120000));
    QVERIFY(!levels->isBusy());
    histogram->refresh();
    const auto gelu_row = [histogram] {
      return histogram->model()->index(histogram->model()->rowOf(QStringLiteral("aten.gelu.default")), 0);
    };
    QVERIFY(gelu_row().isValid());
    window_->programModel()->selectNode(QString());
    picture.clear();
    emit histogram->table()->activated(gelu_row());
    const ir::Node* gelu = window_->programModel()->selectedNode();
    QVERIFY(gelu && gelu->target.op_name() == "gelu");
    QVERIFY(wait_for_picture(picture));
    QTRY_VERIFY(scene()->nodeItem(QString::fromStdString(gelu->name)) &&
                scene()->nodeItem(QString::fromStdString(gelu->name))->isSelected());
    emit histogram->table()->activated(gelu_row());
    QVERIFY(window_->programModel()->selectedNode() != gelu);
    QCOMPARE(window_->programModel()->selectedNode()->target.op_name(), std::string("gelu"));
  }

  void folded_weights_are_listed_in_the_inspector() {
    QVERIFY(open_and_wait(QStringLiteral("nested_cnn")));
    const QJsonObject weights = browse_hierarchy(QStringLiteral("nested_cnn"))["weights"].toObject();
    // The users torch records for each weight carry it as a badge.
    std::map<QString, int> folded_into;
    for (auto it = weights.begin(); it != weights.end(); ++it)
      for (const auto& u : it.value().toObject()["users"].toArray()) ++folded_into[u.toString()];
    QVERIFY(expand_everything());
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    for (const auto& [user, count] : folded_into) {
      ui::NodeItem* item = scene()->nodeItem(user);
      QVERIFY2(item, qPrintable(user));
      QCOMPARE(item->foldedWeights(), count);
    }
    const QString conv = QStringLiteral("conv2d");
    window_->programModel()->selectNode(conv);
    const QString text = window_->inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("Weights (folded")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("stem.0.weight")));
    QVERIFY(text.contains(QStringLiteral("f32[8, 3, 3, 3]")));
    QVERIFY(text.contains(QStringLiteral("864 B")));  // 8*3*3*3 floats
    // Shown as nodes again: beside their users, inside the users' scope.
    picture.clear();
    view()->showWeightsAction()->trigger();
    QVERIFY(wait_for_picture(picture));
    ui::NodeItem* weight = scene()->nodeItem(QStringLiteral("p_stem_0_weight"));
    QVERIFY(weight);
    QVERIFY(scene()->clusterItem(hierarchy().find_path("stem.0"))->box().contains(weight->box()));
    QCOMPARE(scene()->nodeItem(conv)->foldedWeights(), 0);
    picture.clear();
    view()->showWeightsAction()->trigger();
    QVERIFY(wait_for_picture(picture));
    QVERIFY(!scene()->nodeItem(QStringLiteral("p_stem_0_weight")));
  }

  void the_modules_dock_follows_the_canvas_both_ways() {
    QVERIFY(open_and_wait(QStringLiteral("nested_cnn")));
    ui::ModulesPanel* panel = window_->modulesPanel();
    ui::ModuleTreeModel* model = panel->treeModel();
    const ir::ModuleHierarchy& h = hierarchy();
    QCOMPARE(model->rowCount(), int(h.root().children.size()));
    // It opened fully expanded: every row with children is open.
    QVERIFY(panel->tree()->isExpanded(model->indexOf(h.find_path("layer2.1"))));
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    scene()->collapseAll();
    QVERIFY(wait_for_picture(picture));
    QVERIFY(!panel->tree()->isExpanded(model->indexOf(h.find_path("layer2"))));
    // A row made current: its scope is drawn (the scopes around it open) and in sight.
    const int block = h.find_path("layer2.1");
    picture.clear();
    panel->tree()->setCurrentIndex(model->indexOf(block));
    QVERIFY(wait_for_picture(picture));
    QVERIFY(scene()->scopeItem(block));
    QTRY_VERIFY(!scene()->scopeRect(block).isNull());
    // In sight: whole, or its top (with its title) when it is bigger than the view.
    QTRY_VERIFY(view()->mapToScene(view()->viewport()->rect()).boundingRect().contains(scene()->scopeRect(block).topLeft()));
    // Opening the row opens the scope on the canvas, and closing it closes it.
    picture.clear();
    panel->tree()->expand(model->indexOf(block));
    QVERIFY(wait_for_picture(picture));
    QVERIFY(scene()->clusterItem(block));
    // The canvas opening a scope opens its row.
    const int conv = h.find_path("layer3.0.downsample");
    picture.clear();
    scene()->revealScope(conv);
    QVERIFY(wait_for_picture(picture));
    QVERIFY(panel->tree()->isExpanded(model->indexOf(h[conv].parent)));
    // Selecting a node makes its scope's row current.
    const QString relu = node_in(QStringLiteral("layer2.1"), "relu");
    window_->programModel()->selectNode(relu);
    QCOMPARE(panel->currentScope(), h.scope_of[window_->programModel()->node(relu)->index()]);
    // After a run, each row shows its share of the time.
    ui::RunSettings settings;
    settings.seed = 3;
    QSignalSpy finished(window_->runWorker(), &ui::RunWorker::finished);
    window_->runWorker()->start(window_->programModel()->loaded(), settings);
    QVERIFY(finished.wait(120000));
    QVERIFY(model->timeShare(h.find_path("layer1")) > 0);
    QVERIFY(model->timeShare(h.find_path("layer1")) < 1);
    QVERIFY(model->index(0, ui::ModuleTreeModel::Time).data().toString().endsWith(QStringLiteral(" %")));
    testing::save_screenshot(window_.get(), QStringLiteral("browse_nested_cnn_modules.png"));
  }

  void opening_reads_no_weights_until_a_run() {
    QVERIFY(open_and_wait(QStringLiteral("nested_cnn")));
    const ui::LoadedProgramPtr program = window_->programModel()->loaded();
    QVERIFY(!program->program->state_dict.empty());
    uint64_t stored = 0;
    for (const auto& [key, payload] : program->program->state_dict) {
      QVERIFY2(!payload.bytes && payload.source, key.c_str());
      stored += payload.stored_size;
    }
    const auto& source = *program->program->state_dict.front().second.source;
    QCOMPARE(source.bytes_read(), uint64_t(0));
    // The inspector's value preview reads one weight, only when asked: a
    // fresh BatchNorm's running variance is all ones (torch's init).
    const QString variance = QStringLiteral("b_stem_1_running_var");
    window_->programModel()->selectNode(variance);
    QVERIFY(window_->inspector()->plainText().contains(QStringLiteral("Show its values")));
    QCOMPARE(source.bytes_read(), uint64_t(0));
    QSignalSpy shown(window_->inspector(), &ui::InspectorWidget::valuesShown);
    window_->inspector()->previewValues(variance);
    QVERIFY(shown.wait(30000));
    const QString text = window_->inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("min 1")) && text.contains(QStringLiteral("max 1")) &&
                 text.contains(QStringLiteral("mean 1")) && text.contains(QStringLiteral("8 elements")),
             qPrintable(text));
    QCOMPARE(source.bytes_read(), uint64_t(8 * 4));
    ui::RunSettings settings;
    QSignalSpy finished(window_->runWorker(), &ui::RunWorker::finished);
    window_->runWorker()->start(program, settings);
    QVERIFY(finished.wait(120000));
    QVERIFY(finished.first().at(0).value<ui::RunOutcome>().succeeded());
    QVERIFY(source.bytes_read() >= stored + 8 * 4);
  }

  void same_at_the_core_aten_level() {
    QVERIFY(open_and_wait(QStringLiteral("transformer_stack")));
    QVERIFY(show_core_aten());
    ui::IrLevelsUi* levels = window_->irLevels();
    const QJsonObject torch = browse_hierarchy(QStringLiteral("transformer_stack"));
    const QJsonObject core = torch["core"].toObject();
    const int weights = int(torch["weights"].toObject().size());
    QCOMPARE(int(window_->programModel()->loaded()->graph().size()), core["nodes"].toInt());
    QCOMPARE(window_->programModel()->loaded()->openingDepth, expected_depth(core, weights));
    QCOMPARE(drawn_items(), torch_items_at(core, weights, expected_depth(core, weights)));
    // A lowered node deep inside is revealed as at the training level.
    const QString addmm = node_in(QStringLiteral("blocks.20.attn.proj"), "addmm");
    QVERIFY(!addmm.isEmpty());
    QSignalSpy picture(scene(), &ui::GraphScene::pictureChanged);
    window_->programModel()->selectNode(addmm);
    QVERIFY(wait_for_picture(picture));
    QTRY_VERIFY(scene()->nodeItem(addmm) && scene()->nodeItem(addmm)->isSelected());
    testing::save_screenshot(window_.get(), QStringLiteral("browse_transformer_stack_core.png"));

    // Compare levels: both panes open collapsed; picking a node in one reveals what it became in the other.
    ui::SideBySideView* compare = levels->compareView();
    window_->centralTabs()->setCurrentWidget(compare);
    QTRY_VERIFY(compare->program(ui::SideBySideView::Left) && compare->program(ui::SideBySideView::Right));
    ui::GraphScene* left = compare->scene(ui::SideBySideView::Left);
    ui::GraphScene* right = compare->scene(ui::SideBySideView::Right);
    QVERIFY(!left->scopeItems().isEmpty() && !right->scopeItems().isEmpty());
    const ir::ModuleHierarchy& lh = *compare->program(ui::SideBySideView::Left)->hierarchy;
    const auto left_nodes = compare->program(ui::SideBySideView::Left)->graph().nodes();
    QString linear;
    for (int n : lh.nodes_within(lh.find_path("blocks.20.attn.proj")))
      if (left_nodes[n]->target.op_name() == "linear") linear = QString::fromStdString(left_nodes[n]->name);
    QVERIFY(!linear.isEmpty());
    compare->selectNode(ui::SideBySideView::Left, linear);
    QTRY_VERIFY(!compare->selectedNodes(ui::SideBySideView::Right).isEmpty());
    QTRY_VERIFY(compare->selectedNodes(ui::SideBySideView::Left).contains(linear));
    QVERIFY(compare->selectedNodes(ui::SideBySideView::Right).contains(addmm));
    testing::save_screenshot(window_.get(), QStringLiteral("browse_compare_levels.png"));
    window_->centralTabs()->setCurrentWidget(view());
  }

  void a_wide_fan_out_is_drawn_as_stubs() {
    // Exported with dynamic sizes, every block's views read the two symbolic
    // sizes, the more so in Core ATen: sources of dozens of edges. Each of
    // those edges is a stub into its target until the source is selected;
    // the other edges are whole.
    QVERIFY(open_and_wait(QStringLiteral("transformer_stack_dynamic")));
    QVERIFY(show_core_aten());
    QVERIFY(expand_everything());
    // The program's own uses (not the drawing's) say which sources are wide.
    std::map<QString, int> uses;
    for (const ir::Node* n : window_->programModel()->loaded()->graph().nodes()) {
      std::set<const ir::Node*> users(n->users().begin(), n->users().end());
      uses[QString::fromStdString(n->name)] = int(users.size());
    }
    std::map<QString, int> drawn;
    for (const ui::EdgeItem* edge : scene()->edgeItems()) ++drawn[edge->from()];
    QString widest;
    for (const auto& [from, n] : drawn)
      if (n > 24 && (widest.isEmpty() || n > drawn[widest])) widest = from;
    QVERIFY2(!widest.isEmpty(), "no source of more than 24 edges in the dynamic stack at Core ATen");
    QVERIFY(uses[widest] >= drawn[widest]);
    for (const ui::EdgeItem* edge : scene()->edgeItems()) {
      QCOMPARE(edge->isStub(), drawn[edge->from()] > 24);
      if (edge->isStub()) QVERIFY(edge->boundingRect().height() < 40);
    }
    // Selected: its edges are drawn whole (reaching up to it), highlighted.
    ui::NodeItem* source = scene()->nodeItem(widest);
    QVERIFY(source);
    window_->programModel()->selectNode(widest);
    QTRY_VERIFY(source->isSelected());
    int whole = 0;
    for (const ui::EdgeItem* edge : scene()->edgeItems()) {
      if (edge->from() != widest) continue;
      QVERIFY(edge->isHighlighted());
      if (edge->boundingRect().top() <= source->box().bottom() + 1) ++whole;
    }
    QCOMPARE(whole, drawn[widest]);
    window_->programModel()->selectNode(QString());
    for (const ui::EdgeItem* edge : scene()->edgeItems())
      if (edge->from() == widest) QVERIFY(edge->boundingRect().height() < 40);
  }

  void the_minimap_moves_the_view() {
    QVERIFY(open_and_wait(QStringLiteral("transformer_stack")));
    QVERIFY(expand_everything());
    // Fit on a picture too tall to read whole: readable, from the top (the
    // inputs in sight); Fit again: all of it.
    view()->fitAll();
    QVERIFY(view()->zoom() >= 0.35);
    QVERIFY(visible_in_view(scene()->nodeItem(QStringLiteral("x"))->box()));
    view()->fitAll();
    QVERIFY(view()->zoom() < 0.35);
    QVERIFY(view()->mapToScene(view()->viewport()->rect()).boundingRect().contains(scene()->sceneRect().adjusted(1, 1, -1, -1)));
    view()->resetZoom();
    ui::Minimap* minimap = view()->minimap();
    QTRY_VERIFY(minimap->isVisible());
    // A click near the bottom of the overview brings the end of the program into view.
    const QPoint bottom(minimap->width() / 2, minimap->height() - 3);
    QTest::mouseClick(minimap, Qt::LeftButton, Qt::NoModifier, bottom);
    const QPointF centre = view()->mapToScene(view()->viewport()->rect().center());
    QVERIFY(std::abs(centre.y() - minimap->toScene(bottom).y()) < view()->viewport()->height());
    QVERIFY(visible_in_view(scene()->nodeItem(QStringLiteral("output"))->box()) ||
            centre.y() > scene()->sceneRect().center().y());
    QVERIFY(minimap->viewportRect().center().y() > minimap->height() / 2);
  }
};

QTEST_MAIN(TestBrowse)
#include "test_browse.moc"

// File › Compare With File… offscreen, on the diff oracle's cases
// (diff_cases.py): the main window opens A, the diff window puts B beside it
// and, once the diff (off the GUI thread) is in, marks what torch's graphs
// say changed: the stack box holding the changed layer on both sides, then
// the changed node itself, drawn in the changed colour (pixels read back
// from the canvas); the nodes only B has (an inserted adapter) are marked
// added and select nothing on A's side; the Changes dock lists each truth
// change under its module call, and picking a row or a node selects its
// match in the other pane. Screenshots: build/screenshots/diff_*.png.
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTreeView>
#include <QtTest>

#include <cmath>
#include <memory>

#include "diff/diff_fixtures.h"
#include "support/fixtures.h"
#include "support/screenshot.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/program_model.h"
#include "ui/diff/changes_model.h"
#include "ui/diff/changes_panel.h"
#include "ui/diff/diff_colours.h"
#include "ui/diff/diff_marks.h"
#include "ui/diff/diff_window.h"
#include "ui/shell/main_window.h"

using namespace exportlens;
using exportlens::testing::save_screenshot;
using Side = ui::SideBySideView::Side;

namespace {

// diff_fixtures.h's cases in Qt's types.
QString diff_case_file(const QString& name, const QString& file) {
  return QString::fromStdString(exportlens::testing::diff_case_file(name.toStdString(), file.toStdString()));
}
QJsonObject diff_truth(const QString& name) {
  return exportlens::testing::read_json(diff_case_file(name, QStringLiteral("truth.json")));
}

// Whether the canvas shows `colour` on the outline drawn around a node's box (a few pixels left of it).
bool outlined_in(ui::GraphView* view, const QString& node, const QColor& colour) {
  const auto* item = qobject_cast<ui::GraphScene*>(view->scene())->nodeItem(node);
  if (!item) return false;
  view->centerOn(item);
  QCoreApplication::processEvents();
  const QImage image = view->viewport()->grab().toImage();
  const QRectF box = item->box();
  for (qreal dy : {0.25, 0.5, 0.75}) {
    const QPoint at = view->mapFromScene(QPointF(box.left() - 3, box.top() + dy * box.height()));
    for (int dx = -3; dx <= 3; ++dx) {
      const QColor c = image.pixelColor(at.x() * image.devicePixelRatio() + dx, at.y() * image.devicePixelRatio());
      if (std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) + std::abs(c.blue() - colour.blue()) < 60)
        return true;
    }
  }
  return false;
}

}  // namespace

class TestDiffWindow : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> window_;

  // The main window on A, and the diff window against B with its diff in.
  ui::DiffWindow* compare(const QString& name) {
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(diff_case_file(name, "a.pt2"));
    if (!shown.wait(60000)) return nullptr;
    ui::DiffWindow* diff = window_->compareWithFile(diff_case_file(name, "b.pt2"));
    if (!diff) return nullptr;
    diff->resize(1600, 950);
    QSignalSpy ready(diff, &ui::DiffWindow::diffReady);
    if (!ready.wait(120000)) return nullptr;
    // Both canvases laid out, their stacks folded.
    QTest::qWaitFor([&] { return !diff->view()->scene(Side::Left)->isLayingOut() && !diff->view()->scene(Side::Right)->isLayingOut(); },
                    30000);
    return diff;
  }

 private slots:
  void init() {
    window_ = std::make_unique<ui::MainWindow>();
    window_->resize(1500, 950);
    window_->show();
  }
  void cleanup() { window_.reset(); }

  void the_action_needs_a_program() {
    auto* action = window_->findChild<QAction*>(QStringLiteral("compareWithFileAction"));
    QVERIFY(action);
    QVERIFY(!action->isEnabled());
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(diff_case_file("llama_activation", "a.pt2"));
    QVERIFY(shown.wait(60000));
    QVERIFY(action->isEnabled());
  }

  void changed_layer_marked_and_linked() {
    const QString name = "llama_activation";
    ui::DiffWindow* diff = compare(name);
    QVERIFY(diff);
    const QJsonObject truth = diff_truth(name);
    const QJsonArray changed = truth["changed"].toArray();
    QCOMPARE(changed.size(), 1);
    const QString node_a = changed[0].toArray()[0].toString(), node_b = changed[0].toArray()[1].toString();
    auto* view = diff->view();
    QCOMPARE(view->program(Side::Left)->path, diff_case_file(name, "a.pt2"));
    QCOMPARE(view->program(Side::Right)->path, diff_case_file(name, "b.pt2"));

    // Once the diff is in, the first change is selected on both sides, and the canvases open on it.
    QTRY_COMPARE(view->selectedNodes(Side::Left), QStringList{node_a});
    QTRY_COMPARE(view->selectedNodes(Side::Right), QStringList{node_b});
    // The layers are one stack, opened on the changed instance: its frame is marked changed on both
    // sides, and every marked box or frame holds the changed node (the call itself, or the stack it stands for).
    for (Side side : {Side::Left, Side::Right}) {
      QTRY_VERIFY(!diff->marks(side)->markedScopes().isEmpty());
      const auto marked = diff->marks(side)->markedScopes();
      const auto& h = *view->program(side)->hierarchy;
      const int home = view->scene(side)->homeScope(side == Side::Left ? node_a : node_b);
      bool stack_marked = false;
      for (auto it = marked.begin(); it != marked.end(); ++it) {
        QCOMPARE(it.value(), unsigned(ui::ChangeFlag::Changed));
        const int run = view->scene(side)->runDrawnBy(it.key());
        bool holds = h.encloses(it.key(), home);
        if (run >= 0)
          for (int member : view->scene(side)->foldedRuns()[size_t(run)].members) holds = holds || h.encloses(member, home);
        stack_marked = stack_marked || run >= 0;
        QVERIFY2(holds, qPrintable(QString::fromStdString(h[it.key()].path)));
      }
      QVERIFY(stack_marked);
    }

    // Picking the changed node selects its match; both are drawn, marked changed, outlined in the changed colour.
    view->selectNode(Side::Left, QString());
    view->selectNode(Side::Left, node_a);
    QTRY_COMPARE(view->selectedNodes(Side::Right), QStringList{node_b});
    QTRY_COMPARE(diff->marks(Side::Left)->markedNodes().value(node_a), diff::Status::Changed);
    QTRY_COMPARE(diff->marks(Side::Right)->markedNodes().value(node_b), diff::Status::Changed);
    QCOMPARE(diff->marks(Side::Right)->markedNodes().size(), 1);
    const QColor orange = ui::change_colour(diff::Status::Changed);
    QTRY_VERIFY(outlined_in(view->view(Side::Left), node_a, orange));
    QTRY_VERIFY(outlined_in(view->view(Side::Right), node_b, orange));

    // The Changes dock: the change under its module call, in the changed colour, current after the pick.
    auto* model = diff->changes()->model();
    const QModelIndex row = model->indexOfNode(Side::Right, node_b);
    QVERIFY(row.isValid());
    QCOMPARE(row.data(ui::ChangesModel::LeftNodeRole).toString(), node_a);
    QCOMPARE(row.data(Qt::ForegroundRole).value<QBrush>().color(), orange);
    QVERIFY2(row.parent().data().toString().contains("model.model.layers.3.mlp.act_fn"), qPrintable(row.parent().data().toString()));
    QVERIFY(row.siblingAtColumn(1).data().toString().contains("aten.silu.default → aten.gelu.default"));
    QCOMPARE(diff->changes()->tree()->currentIndex(), row);
    QVERIFY(diff->changes()->summary()->text().contains("1 changed, 0 added, 0 removed"));

    // Picking in B selects in A, and a row of the dock selects on both sides.
    view->selectNode(Side::Right, QString());
    view->selectNode(Side::Left, QString());
    diff->changes()->tree()->setCurrentIndex(model->index(0, 0));  // a module call's row first
    diff->changes()->tree()->setCurrentIndex(row);
    QTRY_COMPARE(view->selectedNodes(Side::Left), QStringList{node_a});
    QTRY_COMPARE(view->selectedNodes(Side::Right), QStringList{node_b});
    save_screenshot(diff, QStringLiteral("diff_llama_activation.png"), QSize(800, 500));
  }

  void inserted_block_marked_added() {
    const QString name = "stack_adapter_inserted";
    ui::DiffWindow* diff = compare(name);
    QVERIFY(diff);
    const QJsonObject truth = diff_truth(name);
    auto* view = diff->view();
    // The inserted adapter's box is marked added on B's side; A has no box marked (nothing changed in it).
    const auto& hb = *view->program(Side::Right)->hierarchy;
    const int adapter = hb.find_path("blocks.3");
    QVERIFY(adapter > 0);
    QCOMPARE(QString::fromStdString(hb[adapter].class_name()), QStringLiteral("Adapter"));
    view->scene(Side::Right)->revealScope(adapter);
    QTRY_VERIFY(diff->marks(Side::Right)->markedScopes().value(adapter) & ui::ChangeFlag::Added);
    // Each added node the truth names, once drawn, is marked added and selects nothing in A.
    int checked = 0;
    for (const auto& v : truth["added"].toArray()) {
      const QString node = v.toString();
      const ir::Node* n = view->program(Side::Right)->graph().find(node.toStdString());
      if (!n || n->op != ir::OpKind::CallFunction) continue;  // weights are folded into their users
      view->selectNode(Side::Right, node);
      QTRY_VERIFY(view->scene(Side::Right)->nodeItem(node));
      QTRY_COMPARE(diff->marks(Side::Right)->markedNodes().value(node), diff::Status::Added);
      QCOMPARE(view->selectedNodes(Side::Left), QStringList());
      // A's pane brings into sight where it would be: its nearest matched neighbour's counterpart's call.
      const QString near = diff->snapshot()->nearest_counterpart(Side::Right, node);
      QVERIFY(!near.isEmpty());
      QTRY_VERIFY(!view->scene(Side::Left)->scopeRect(view->scene(Side::Left)->moduleOf(near)).isNull());
      ++checked;
    }
    QCOMPARE(checked, 4);
    QTRY_VERIFY(outlined_in(view->view(Side::Right), "relu", ui::change_colour(diff::Status::Added)));
    // A's side: no node was removed or changed.
    QVERIFY(diff->marks(Side::Left)->markedNodes().isEmpty());
    QVERIFY(diff->changes()->summary()->text().contains("0 changed, 8 added, 0 removed"));
    save_screenshot(diff, QStringLiteral("diff_stack_adapter_inserted.png"), QSize(800, 500));
  }

  void cancel_leaves_the_window_saying_so() {
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(diff_case_file("llama_block_inserted", "a.pt2"));
    QVERIFY(shown.wait(60000));
    ui::DiffWindow* diff = window_->compareWithFile(diff_case_file("llama_block_inserted", "b.pt2"));
    QVERIFY(diff && diff->isBusy());
    QSignalSpy ready(diff, &ui::DiffWindow::diffReady);
    diff->cancel();
    QVERIFY(!diff->isBusy());
    QVERIFY(!ready.wait(2000));
    QVERIFY(!diff->snapshot());
    QVERIFY(diff->view()->caption(Side::Right)->text().contains("cancelled"));
  }
};

QTEST_MAIN(TestDiffWindow)
#include "test_diff_window.moc"

// Numerics in the window, against torch: the Numerics dock compares a real
// transformer (transformers' BERT) as exported against bfloat16 off the GUI
// thread, every node's total error is torch's (the FX interpreter's bf16 run
// recorded by numerics_cases.py), the table puts the node that introduced the
// most error first, the canvas is tinted by it between thresholds the user
// edits and collapsed modules by their worst node; a NaN is traced to the log
// that made it; Cancel stops a run; the tensor viewer shows a node's A, B and
// B - A with the elements that differ most (the worst equals the node's
// max_abs), and a weight's stored values equal torch's state_dict; node data
// written in Model Explorer's format reads back onto the graph.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>
#include <memory>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/numerics/numerics_controller.h"
#include "ui/numerics/numerics_overlay.h"
#include "ui/numerics/numerics_panel.h"
#include "ui/numerics/numerics_table_model.h"
#include "ui/numerics/numerics_worker.h"
#include "ui/numerics/tensor_pane.h"
#include "ui/numerics/tensor_slice_view.h"
#include "ui/numerics/tensor_viewer.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/run/run_panel.h"
#include "ui/run/run_worker.h"
#include "ui/shell/main_window.h"
#include "support/exportlens_process.h"
#include "support/screenshot.h"
#include "support/fixtures.h"
#include "numerics/numerics_fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;
using exportlens::ui::NodeNameRole;
using ui::MainWindow;
using ui::NumericsSettings;
using ui::NumericsTableModel;

namespace {

QString cases() { return QString::fromStdString(numerics_cases()); }
QString corpus(const QString& name, const QString& file) {
  return QString::fromStdString(corpus_file(name.toStdString(), file.toStdString()));
}

}  // namespace

class TestNumericsWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir tmp_;

  ui::NumericsController* numerics() const { return window_->numericsController(); }
  ui::NumericsPanel* panel() const { return numerics()->panel(); }

  void open(const QString& path) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
  }

  // Runs the dock's comparison with `settings` and waits for its verdict.
  void compare(NumericsSettings settings) {
    numerics()->dock()->show();
    numerics()->dock()->raise();
    window_->resizeDocks({numerics()->dock()}, {420}, Qt::Vertical);
    panel()->setSettings(settings);
    QSignalSpy finished(numerics()->worker(), &ui::NumericsWorker::finished);
    QVERIFY(panel()->runButton()->isEnabled());
    QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(300000));
    QVERIFY2(panel()->result(), qPrintable(panel()->verdictText()));
  }

  ui::TensorViewer* openValues(const QString& node) {
    QSignalSpy opened(numerics(), &ui::NumericsController::viewerOpened);
    numerics()->showValues(node);
    if (!opened.wait(300000)) return nullptr;
    return numerics()->lastViewer();
  }

  void compareBert() {
    open(corpus("bert", "program.pt2"));
    NumericsSettings s;
    s.way = NumericsSettings::Way::BFloat16;
    s.inputsFile = corpus("bert", "inputs.pt");
    compare(s);
  }

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanup() { window_.reset(); }

  void bertAgainstBfloat16() {
    compareBert();
    const QJsonObject torch = read_json(cases() + "/bf16_real.json");
    const numerics::NumericsReport& report = panel()->result()->report;
    NumericsTableModel* model = panel()->tableModel();
    QCOMPARE(model->rowCount(), int(report.nodes.size()));
    // Every node's total error, as the table gives it, is torch's.
    int compared = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
      const QString node = model->index(row, 0).data(NodeNameRole).toString();
      const QJsonValue t = torch.value(node);
      if (t.isUndefined()) continue;
      const double ours = model->index(row, NumericsTableModel::Total).data(NumericsTableModel::SortRole).toDouble();
      QVERIFY2(near_torch(ours, t.toDouble()), qPrintable(QString("%1: ours %2, torch %3").arg(node).arg(ours).arg(t.toDouble())));
      ++compared;
    }
    QCOMPARE(compared, torch.size());
    // bf16 drifts past fp32's tolerance, and the verdict says where it starts.
    QVERIFY(panel()->verdictText().contains("differ beyond"));
    QVERIFY(report.first_divergent && report.first_introducing);
    QVERIFY(panel()->verdictText().contains(QString::fromStdString(report.nodes[*report.first_introducing].node)));
    // Worst first: the top row introduced the most error of any node.
    QSortFilterProxyModel* sorted = panel()->sortedModel();
    const QString top = sorted->index(0, 0).data(NodeNameRole).toString();
    double worst = 0;
    for (const auto& n : report.nodes)
      if (n.introduced) worst = std::max(worst, n.introduced->max_abs);
    QVERIFY(worst > 0);
    QCOMPARE(report.find(top.toStdString())->introduced->max_abs, worst);

    // The canvas: the worst node at the full tint, a node with no error untinted,
    // every collapsed module by its worst node.
    ui::NumericsOverlay* overlay = numerics()->overlay();
    QVERIFY(overlay->isShown());
    QCOMPARE(overlay->fractions().value(top), 1.0);
    ui::GraphScene* scene = window_->graphScene();
    window_->programModel()->selectNode(top);  // drawn: its modules open
    QTRY_VERIFY(scene->nodeItem(top));
    QCOMPARE(scene->nodeItem(top)->heat(), 1.0);
    int tinted_scopes = 0;
    for (ui::ScopeItem* scope : scene->scopeItems()) tinted_scopes += scope->heat() >= 0 ? 1 : 0;
    QVERIFY(scene->scopeItems().isEmpty() || tinted_scopes > 0);
    // Thresholds: above the worst error nothing is tinted in full.
    panel()->lowEdit()->setText(QLocale().toString(worst * 10, 'g', 6));
    panel()->highEdit()->setText(QLocale().toString(worst * 100, 'g', 6));
    emit panel()->highEdit()->editingFinished();
    QVERIFY(!overlay->fractions().contains(top));
    QVERIFY(scene->nodeItem(top)->heat() < 0);  // drawn as it is
    // A metric where smaller is worse sorts the same way round: worst first.
    panel()->metricBox()->setCurrentIndex(panel()->metricBox()->findData(QStringLiteral("snr_db")));
    QVERIFY(!overlay->largerIsWorse());
    const QString top_snr = sorted->index(0, 0).data(NodeNameRole).toString();
    double lowest_snr = INFINITY;
    for (const auto& n : report.nodes)
      if (n.introduced) lowest_snr = std::min(lowest_snr, n.introduced->snr_db);
    QCOMPARE(report.find(top_snr.toStdString())->introduced->snr_db, lowest_snr);
    panel()->metricBox()->setCurrentIndex(panel()->metricBox()->findData(QStringLiteral("max_abs")));
    overlay->setRange(overlay->low(), worst);
    QTest::qWait(100);  // the dock's layout after the verdict and legend changed
    save_screenshot(window_.get(), "numerics_bert_bf16.png", QSize(800, 600));
  }

  // Node data out in Model Explorer's format and back onto the graph.
  void nodeDataRoundTrip() {
    compareBert();
    const QString path = tmp_.filePath("node_data.json");
    QString error;
    QVERIFY2(panel()->exportNodeData(path, &error), qPrintable(error));
    const QJsonObject data = read_json(path);
    QVERIFY(data.contains("results") && data.contains("gradient"));
    const QHash<QString, qreal> before = numerics()->overlay()->fractions();
    panel()->colourCheck()->setChecked(false);
    QVERIFY(!numerics()->overlay()->isShown());
    QVERIFY2(panel()->importNodeData(path, &error), qPrintable(error));
    QCOMPARE(numerics()->overlay()->fractions().size(), before.size());
    QCOMPARE(numerics()->overlay()->fractions(), before);
    // A file naming no node of the program is refused in one line.
    const QString other = tmp_.filePath("other.json");
    QFile f(other);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"results": {"no_such_node": {"value": 1}}})");
    f.close();
    QVERIFY(!panel()->importNodeData(other, &error));
    QVERIFY(error.contains("no node of this program"));
  }

  // The tensor viewer: A, B and B - A of the worst node; the elements that
  // differ most, the first of them the node's max_abs.
  void tensorViewerShowsWhereTheRunsDiffer() {
    compareBert();
    const QString top = panel()->sortedModel()->index(0, 0).data(NodeNameRole).toString();
    ui::TensorViewer* viewer = openValues(top);
    QVERIFY(viewer);
    QVERIFY(viewer->paneB()->isVisible() && viewer->paneDifference()->isVisible());
    QTableWidget* elements = viewer->elementsTable();
    QVERIFY(elements->rowCount() > 0);
    const double worst_element = elements->item(0, 3)->text().toDouble();
    const double max_abs = panel()->result()->report.find(top.toStdString())->total.max_abs;
    QVERIFY2(std::abs(worst_element - max_abs) <= 1e-3 * max_abs,
             qPrintable(QString("worst element %1, max_abs %2").arg(worst_element).arg(max_abs)));
    QVERIFY(viewer->paneA()->statsText().contains("min"));
    QVERIFY(viewer->paneA()->slice()->rows() > 0);
    viewer->resize(1200, 700);
    QTest::qWait(50);
    save_screenshot(viewer, "numerics_tensor_viewer.png", QSize(600, 400));
  }

  // A weight's stored values, no run: its statistics are torch's.
  void weightValuesAreTorchs() {
    open(corpus("bert", "program.pt2"));
    const auto* program = window_->programModel()->program();
    const ir::InputSpec* weight = nullptr;
    for (const auto& spec : program->signature.inputs)
      if (spec.kind == ir::InputKind::Parameter && spec.target) {
        weight = &spec;
        break;
      }
    QVERIFY(weight);
    ui::TensorViewer* viewer = openValues(QString::fromStdString(weight->arg.name));
    QVERIFY(viewer);
    QVERIFY(!viewer->paneB()->isVisible());
    const auto torch = run_python(
        "import sys, torch; ep = torch.export.load(sys.argv[1]); t = ep.state_dict[sys.argv[2]].float();"
        "print(repr(float(t.min())), repr(float(t.max())))",
        {corpus("bert", "program.pt2"), QString::fromStdString(*weight->target)});
    QVERIFY2(torch.code == 0, qPrintable(torch.err));
    const QStringList mm = torch.out.split(' ', Qt::SkipEmptyParts);
    QVERIFY(mm.size() == 2);
    const QString stats = viewer->paneA()->statsText();
    QVERIFY2(stats.contains(QString("min %1").arg(mm[0].toDouble(), 0, 'g', 5)), qPrintable(stats + " / torch " + torch.out));
    QVERIFY2(stats.contains(QString("max %1").arg(mm[1].toDouble(), 0, 'g', 5)), qPrintable(stats + " / torch " + torch.out));
  }

  // A graph input's values (as both runs get them), opened from the Inspector's link: torch's.
  void inputValuesFromTheInspector() {
    open(corpus("bert", "program.pt2"));
    NumericsSettings s;
    s.inputsFile = corpus("bert", "inputs.pt");
    panel()->setSettings(s);
    const auto inputs = window_->programModel()->program()->signature.user_inputs();
    QVERIFY(!inputs.empty());
    const QString name = QString::fromStdString(inputs[0]->arg.name);
    window_->programModel()->selectNode(name);
    QVERIFY(window_->inspector()->plainText().contains("Open in the tensor viewer"));
    QSignalSpy opened(numerics(), &ui::NumericsController::viewerOpened);
    emit window_->inspector()->tensorViewerRequested(name);  // the link's signal, as a click sends it
    QVERIFY(opened.wait(120000));
    ui::TensorViewer* viewer = numerics()->lastViewer();
    QVERIFY(viewer && !viewer->paneB()->isVisible());
    const auto torch = run_python(
        "import sys, torch; t = torch.load(sys.argv[1])[0].double();"
        "print(repr(float(t.min())), repr(float(t.max())), t.numel())",
        {corpus("bert", "inputs.pt")});
    QVERIFY2(torch.code == 0, qPrintable(torch.err));
    const QStringList f = torch.out.split(' ', Qt::SkipEmptyParts);
    QCOMPARE(f.size(), 3);
    const QString stats = viewer->paneA()->statsText();
    QVERIFY2(stats.contains(QString("min %1").arg(f[0].toDouble(), 0, 'g', 5)), qPrintable(stats + " / torch " + torch.out));
    QVERIFY2(stats.contains(QString("max %1").arg(f[1].toDouble(), 0, 'g', 5)), qPrintable(stats + " / torch " + torch.out));
    QVERIFY2(stats.contains(QString("%1 elements").arg(f[2].trimmed())), qPrintable(stats));
    // A click on a row of the dock shows that node in the same viewer.
    compareBert();
    QTableView* table = panel()->table();
    const QModelIndex second = table->model()->index(1, 0);
    const QString node = second.data(NodeNameRole).toString();
    QSignalSpy again(numerics(), &ui::NumericsController::viewerOpened);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(second).center());
    QVERIFY(again.wait(120000));
    QCOMPARE(numerics()->lastViewer(), viewer);
    QCOMPARE(window_->programModel()->selectedName(), node);
    QVERIFY(viewer->paneB()->isVisible());
  }

  // The Run dock's per-node times out as node data, one value per timed node.
  void runTimesAsNodeData() {
    open(corpus("bert", "program.pt2"));
    QString error;
    QVERIFY(!panel()->exportRunTimes(tmp_.filePath("times.json"), &error));
    QVERIFY(error.contains("run the program first"));
    QSignalSpy ran(window_->programModel(), &ui::ProgramModel::runFinished);
    ui::RunSettings settings = window_->runPanel()->settings();
    settings.inputs = ui::RunSettings::Inputs::File;
    settings.inputsFile = corpus("bert", "inputs.pt");
    window_->runPanel()->setSettings(settings);
    window_->runPanel()->runNow();
    QVERIFY(ran.wait(120000));
    const auto& times = window_->programModel()->runTimes();
    QVERIFY(!times.isEmpty());
    QVERIFY2(panel()->exportRunTimes(tmp_.filePath("times.json"), &error), qPrintable(error));
    const QJsonObject results = read_json(tmp_.filePath("times.json"))["results"].toObject();
    QCOMPARE(results.size(), times.size());
    for (auto it = times.cbegin(); it != times.cend(); ++it)
      QCOMPARE(results[it.key()].toObject()["value"].toDouble(), it.value());
  }

  void nanIsTracedToItsOrigin() {
    open(cases() + "/nan/program.pt2");
    NumericsSettings s;
    s.way = NumericsSettings::Way::Float64;
    s.inputsFile = cases() + "/nan/inputs.pt";
    compare(s);
    const QString expected = read_json(cases() + "/nan/expected.json")["first_nonfinite"].toString();
    QVERIFY2(panel()->verdictText().contains("NaN/Inf first made in B at " + expected), qPrintable(panel()->verdictText()));
  }

  void cancelStopsARun() {
    open(corpus("bert", "program.pt2"));
    NumericsSettings s;
    s.way = NumericsSettings::Way::Core;  // lowering first: long enough to cancel
    s.inputsFile = corpus("bert", "inputs.pt");
    panel()->setSettings(s);
    QSignalSpy cancelled(numerics()->worker(), &ui::NumericsWorker::cancelled);
    QSignalSpy finished(numerics()->worker(), &ui::NumericsWorker::finished);
    panel()->runNow();
    numerics()->worker()->cancel();
    QVERIFY(!cancelled.isEmpty() || cancelled.wait(10000));
    QVERIFY(!panel()->result());
    QCOMPARE(panel()->verdictText(), QString());
    QTest::qWait(200);
    QVERIFY(finished.isEmpty());
    QVERIFY(panel()->runButton()->isEnabled());
  }

  void refusesNothingToCompare() {
    open(corpus("bert", "program.pt2"));
    NumericsSettings s;
    s.way = NumericsSettings::Way::Device;
    s.device = "cpu";
    panel()->setSettings(s);
    QSignalSpy finished(numerics()->worker(), &ui::NumericsWorker::finished);
    panel()->runNow();
    QTRY_VERIFY(!finished.isEmpty());
    QVERIFY(!panel()->result());
    QVERIFY(panel()->runButton()->isEnabled());
  }
};

QTEST_MAIN(TestNumericsWindow)
#include "test_numerics_window.moc"

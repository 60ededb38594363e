// The Run dock on real torch.export fixtures: random inputs from the
// signature, inputs from a file, per-node times as a heat map on the canvas
// (with its legend), the comparison with the CPU (exact on the CPU; bf16's
// error as torch's module.to(bfloat16) makes it), the memory timeline
// (clicking selects), the node's run in the inspector, errors that name the
// op or input (custom op, bad files, guard failures), a GPU request on a
// machine without one and the disabled Run on GPU button's tooltip, cancel;
// and screenshots.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>

#include <cmath>
#include <memory>
#include <utility>

#include "support/fixtures.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_model.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/run/gpu_run_action.h"
#include "ui/run/heat_legend.h"
#include "ui/run/memory_timeline_view.h"
#include "ui/run/node_times_model.h"
#include "ui/run/run_outputs_model.h"
#include "ui/run/run_panel.h"
#include "ui/run/run_worker.h"
#include "ui/shell/main_window.h"
#include "support/screenshot.h"

using namespace exportlens;
using exportlens::testing::fixture_file;
using ui::MainWindow;

namespace {

QString cell(QAbstractItemModel* model, int row, int column) { return model->index(row, column).data().toString(); }

}  // namespace

class TestRunDock : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;
  QTemporaryDir tmp_;

  bool open_and_wait(const QString& path) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(path);
    return shown.wait(60000);
  }

  ui::RunPanel* panel() const { return window_->runPanel(); }

  // Runs with the panel's settings and waits for the outcome.
  ui::RunOutcome run(const ui::RunSettings& settings) {
    panel()->setSettings(settings);
    QSignalSpy finished(window_->runWorker(), &ui::RunWorker::finished);
    window_->runAction()->trigger();
    if (finished.isEmpty() && !finished.wait(120000)) return {};
    return finished.first().at(0).value<ui::RunOutcome>();
  }

  static ui::RunSettings random(const QString& device = QStringLiteral("cpu")) {
    ui::RunSettings s;
    s.seed = 7;
    s.device = device;
    s.compareCpu = false;
    return s;
  }

  static ui::RunSettings from_file(const QString& path) {
    ui::RunSettings s;
    s.inputs = ui::RunSettings::Inputs::File;
    s.inputsFile = path;
    return s;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensRunTest"));
    const QString program = fixture_file("dynamic_model_auto", "program.pt2");
    if (!QFile::exists(program)) QFAIL(qPrintable("fixture missing: " + program));
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(open_and_wait(program));
  }

  void toolbar_offers_cpu_and_gpu() {
    QVERIFY(window_->runAction()->isEnabled());
    QCOMPARE(window_->runAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    QComboBox* devices = window_->toolbarDeviceBox();
    QCOMPARE(devices->count(), 2);
    QCOMPARE(devices->itemData(0).toString(), QStringLiteral("cpu"));
    QCOMPARE(devices->itemData(1).toString(), QStringLiteral("cuda"));
    devices->setCurrentIndex(1);  // the toolbar and the dock choose together
    QCOMPARE(panel()->deviceBox()->currentIndex(), 1);
    panel()->deviceBox()->setCurrentIndex(0);
    QCOMPARE(devices->currentIndex(), 0);
  }

  void random_inputs_run_on_the_cpu() {
    const ui::RunOutcome outcome = run(random());
    QVERIFY2(outcome.succeeded(), qPrintable(outcome.error));
    // DynamicModel: linear(w) -> [6, 3], flatten(x + y) + z -> [32].
    ui::RunOutputsModel* outputs = panel()->outputsModel();
    QCOMPARE(outputs->rowCount(), 2);
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::Output), QStringLiteral("linear"));
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::Shape), QStringLiteral("[6, 3]"));
    QCOMPARE(cell(outputs, 1, ui::RunOutputsModel::Shape), QStringLiteral("[32]"));
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::DType), QStringLiteral("torch.float32"));
    const double min = cell(outputs, 1, ui::RunOutputsModel::Min).toDouble();
    const double max = cell(outputs, 1, ui::RunOutputsModel::Max).toDouble();
    const double mean = cell(outputs, 1, ui::RunOutputsModel::Mean).toDouble();
    QVERIFY(min <= mean && mean <= max && min < max);
    QVERIFY(cell(outputs, 0, ui::RunOutputsModel::VsCpu).isEmpty());  // a CPU run has no reference
    QVERIFY(panel()->messageText().startsWith(QStringLiteral("Ran on CPU in")));
    QVERIFY(window_->statusText().startsWith(QStringLiteral("Ran on CPU in")));
    // Per-node times, slowest first, and the same seed gives the same outputs.
    ui::NodeTimesModel* times = panel()->timesModel();
    QCOMPARE(times->rowCount(), 4);  // add, linear, flatten, add_1
    QVERIFY(!times->timeText(QStringLiteral("linear")).isEmpty());
    const QString first_mean = cell(outputs, 0, ui::RunOutputsModel::Mean);
    QVERIFY(run(random()).succeeded());
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::Mean), first_mean);
  }

  void node_times_tint_the_canvas() {
    ui::GraphScene* scene = window_->graphScene();
    QVERIFY(scene->nodeItem(QStringLiteral("linear"))->heat() > 0);
    QVERIFY(scene->nodeItem(QStringLiteral("x"))->heat() < 0);  // placeholders are not timed
    qreal slowest = 0;
    for (const auto* item : scene->nodeItems()) slowest = std::max(slowest, item->heat());
    QCOMPARE(slowest, 1.0);
    QVERIFY(scene->nodeItem(QStringLiteral("linear"))->toolTip().contains(QStringLiteral(" ms")));
    panel()->heatAction()->setChecked(false);
    QVERIFY(scene->nodeItem(QStringLiteral("linear"))->heat() < 0);
    panel()->heatAction()->setChecked(true);
    QVERIFY(scene->nodeItem(QStringLiteral("linear"))->heat() > 0);
  }

  void choosing_a_timed_node_selects_it() {
    QTableView* table = panel()->timesTable();
    table->setCurrentIndex(table->model()->index(0, 0));
    const QString node = table->model()->index(0, 0).data().toString();
    QCOMPARE(window_->programModel()->selectedName(), node);
  }

  // The oracle's inputs give torch's outputs: the dock shows, per output,
  // torch's dtype, shape, min, max and mean (the six digits it prints).
  void inputs_from_a_file_give_torchs_outputs() {
    const ui::RunOutcome outcome = run(from_file(fixture_file("dynamic_model_auto", "inputs.pt")));
    QVERIFY2(outcome.succeeded(), qPrintable(outcome.error));
    const QJsonArray torch_outputs = testing::fixture_meta("dynamic_model_auto")["output_stats"].toArray();
    ui::RunOutputsModel* outputs = panel()->outputsModel();
    QCOMPARE(outputs->rowCount(), torch_outputs.size());
    for (int row = 0; row < outputs->rowCount(); ++row) {
      const QJsonObject want = torch_outputs[row].toObject();
      QCOMPARE(cell(outputs, row, ui::RunOutputsModel::DType), want["dtype"].toString());
      QStringList dims;
      for (const auto& d : want["shape"].toArray()) dims << QString::number(d.toInteger());
      QCOMPARE(cell(outputs, row, ui::RunOutputsModel::Shape), "[" + dims.join(", ") + "]");
      for (const auto& [column, key] : {std::pair{ui::RunOutputsModel::Min, "min"}, {ui::RunOutputsModel::Max, "max"},
                                        {ui::RunOutputsModel::Mean, "mean"}}) {
        const double shown = cell(outputs, row, column).toDouble(), torch = want[key].toDouble();
        QVERIFY2(std::abs(shown - torch) <= 1e-5 * std::max(1.0, std::abs(torch)),
                 qPrintable(QStringLiteral("output %1 %2: shown %3, torch %4").arg(row).arg(key).arg(shown).arg(torch)));
      }
    }
  }

  void bad_inputs_file_names_the_file() {
    const QString bad = tmp_.filePath(QStringLiteral("garbage.pt"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not a torch.save file");
    f.close();
    const ui::RunOutcome outcome = run(from_file(bad));
    QVERIFY(!outcome.succeeded());
    QVERIFY2(outcome.error.contains(bad) && outcome.error.contains(QStringLiteral("torch.save")),
             qPrintable(outcome.error));
    QVERIFY(panel()->messageText().startsWith(QStringLiteral("Run failed: ")));
    QVERIFY(window_->statusText().startsWith(QStringLiteral("Run failed: ")));
    // The last good outputs stay.
    QCOMPARE(panel()->outputsModel()->rowCount(), 2);
  }

  void inputs_that_break_a_guard_name_the_input() {
    // m_linear's inputs: one tensor where DynamicModel takes four.
    const ui::RunOutcome count = run(from_file(fixture_file("m_linear", "inputs.pt")));
    QVERIFY(!count.succeeded());
    QVERIFY2(count.error.contains(QStringLiteral("inputs do not match")), qPrintable(count.error));
    QVERIFY2(panel()->messageText().contains(QStringLiteral("input")), qPrintable(panel()->messageText()));
  }

  void gpu_without_cuda_says_why() {
    QString why;
    if (ui::RunWorker::deviceAvailable(QStringLiteral("cuda"), &why)) QSKIP("this machine has CUDA");
    QVERIFY(!why.isEmpty());
    // Still offered, with the reason as its tooltip.
    QVERIFY(panel()->deviceBox()->itemData(1, Qt::ToolTipRole).toString().contains(why));
    const ui::RunOutcome outcome = run(random(QStringLiteral("cuda")));
    QVERIFY(!outcome.succeeded());
    const QString expected = QStringLiteral("GPU (CUDA) is not available here: ") + why;
    QVERIFY2(outcome.error.contains(expected), qPrintable(outcome.error));
    QVERIFY(panel()->messageText().contains(expected));
    QVERIFY(window_->statusText().contains(QStringLiteral("GPU (CUDA) is not available here")));
    QVERIFY(panel()->runButton()->isEnabled());
    panel()->deviceBox()->setCurrentIndex(0);
  }

  void cancel_stops_the_run() {
    panel()->setSettings(random());
    QSignalSpy cancelled(window_->runWorker(), &ui::RunWorker::cancelled);
    QSignalSpy finished(window_->runWorker(), &ui::RunWorker::finished);
    panel()->runNow();
    QVERIFY(window_->runWorker()->isBusy());
    auto* cancel = panel()->findChild<QPushButton*>(QStringLiteral("runCancelButton"));
    QVERIFY(cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(cancelled.size(), 1);
    QVERIFY(!window_->runWorker()->isBusy());
    QCOMPARE(panel()->messageText(), QStringLiteral("Run cancelled."));
    QTest::qWait(300);  // the abandoned job ends and is dropped
    QCOMPARE(finished.size(), 0);
    QVERIFY(panel()->runButton()->isEnabled());
  }

  void screenshot() {
    QVERIFY(run(random()).succeeded());
    auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("runDock"));
    dock->raise();
    window_->graphView()->fitAll();
    window_->programModel()->selectNode(QStringLiteral("linear"));
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("run_dock.png"));
  }

  void unregistered_custom_op_is_named() {
    // The window's process registers the gallery's port of seed 002's
    // my_custom_library::custom_op (el_trace), so rename it to one nobody registers.
    window_->loader()->setReader([](const QString& path) {
      ir::ExportedProgram ep = ui::pt2_reader()(path);
      for (ir::Node* n : ep.graph().nodes())
        if (n->target.qualified() == "torch.ops.my_custom_library.custom_op.default")
          n->target = ir::Target("torch.ops.unregistered_library.custom_op.default");
      return ep;
    });
    const bool opened = open_and_wait(fixture_file("custom_op", "program.pt2"));
    window_->loader()->setReader(ui::pt2_reader());
    QVERIFY(opened);
    const ui::RunOutcome outcome = run(random());
    QVERIFY(!outcome.succeeded());
    QVERIFY2(outcome.error.contains(QStringLiteral("unregistered_library::custom_op")), qPrintable(outcome.error));
    QVERIFY(panel()->messageText().contains(QStringLiteral("unregistered_library::custom_op")));
    QCOMPARE(panel()->outputsModel()->rowCount(), 0);  // a new program starts empty
    const QString dir = QStringLiteral(EXPORTLENS_BINARY_DIR "/screenshots");
    window_->findChild<QDockWidget*>(QStringLiteral("runDock"))->raise();
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("run_dock_custom_op.png"));
  }

  // --- comparison, precision, memory, inspector (small_cnn) -----------------

  void compared_with_the_cpu_on_the_cpu_is_exact() {
    QVERIFY(open_and_wait(fixture_file("small_cnn", "program.pt2")));
    ui::RunSettings s = from_file(fixture_file("small_cnn", "inputs.pt"));
    s.compareCpu = true;
    const ui::RunOutcome outcome = run(s);
    QVERIFY2(outcome.succeeded(), qPrintable(outcome.error));
    ui::RunOutputsModel* outputs = panel()->outputsModel();
    QCOMPARE(outputs->rowCount(), 1);
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::VsCpu), QStringLiteral("0"));
    QCOMPARE(cell(outputs, 0, ui::RunOutputsModel::Close), QStringLiteral("✓ close"));
    QVERIFY2(panel()->detailsText().contains(QStringLiteral("All 1 outputs are close to the CPU's")),
             qPrintable(panel()->detailsText()));
  }

  // bf16 against the CPU as exported: the error is torch's own (module.to(bfloat16)).
  void bf16_run_shows_torchs_error() {
    ui::RunSettings s = from_file(fixture_file("small_cnn", "inputs.pt"));
    s.compareCpu = true;
    s.precision = runtime::Precision::BFloat16;
    s.repeat = 3;
    const ui::RunOutcome outcome = run(s);
    QVERIFY2(outcome.succeeded(), qPrintable(outcome.error));
    QProcess p;
    p.start(EXPORTLENS_PYTHON, {QStringLiteral(EXPORTLENS_SOURCE_DIR "/tests/cli/run_oracle.py"), QStringLiteral("precision"),
                                fixture_file("small_cnn", "program.pt2"), fixture_file("small_cnn", "inputs.pt"),
                                QStringLiteral("bf16")});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const double torch = QJsonDocument::fromJson(p.readAllStandardOutput()).object()["max_abs"].toArray()[0].toDouble();
    const double shown = cell(panel()->outputsModel(), 0, ui::RunOutputsModel::VsCpu).toDouble();
    QVERIFY2(torch > 0 && std::abs(shown - torch) <= 1e-5 * torch, qPrintable(QString("shown %1, torch %2").arg(shown).arg(torch)));
    QVERIFY2(panel()->detailsText().contains(QStringLiteral("cast to bfloat16: ")), qPrintable(panel()->detailsText()));
    QVERIFY(panel()->detailsText().contains(QStringLiteral("Median of 3 timed runs")));
  }

  void memory_timeline_marks_the_peak_and_selects() {
    ui::MemoryTimelineView* memory = panel()->memoryTimeline();
    QCOMPARE(memory->pointCount(), panel()->timesModel()->rowCount());
    const auto& times = panel()->lastOutcome().report->node_times;
    qint64 peak = -1;
    QString peak_node;
    for (const auto& t : times)
      if (t.peak_bytes && *t.peak_bytes > peak) peak = *t.peak_bytes, peak_node = QString::fromStdString(t.node);
    QCOMPARE(memory->peakNode(), peak_node);
    panel()->resultTabs()->setCurrentWidget(memory);
    window_->findChild<QDockWidget*>(QStringLiteral("runDock"))->raise();
    QTest::qWait(20);
    const int last = memory->pointCount() - 1;
    QTest::mouseClick(memory, Qt::LeftButton, {}, memory->pointPosition(last).toPoint());
    QCOMPARE(window_->programModel()->selectedName(), memory->nodeAt(last));
    window_->programModel()->selectNode(peak_node);
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("run_dock_memory.png"));
    panel()->resultTabs()->setCurrentIndex(0);
  }

  void inspector_shows_the_nodes_run() {
    const auto& times = panel()->lastOutcome().report->node_times;
    const QString node = QString::fromStdString(times.front().node);
    window_->programModel()->selectNode(node);
    const QString text = window_->findChild<ui::InspectorWidget*>()->plainText();
    QVERIFY2(text.contains(QStringLiteral("Last run")) && text.contains(QStringLiteral(" ms on CPU")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("memory after it: ")), qPrintable(text));
  }

  void heat_legend_explains_the_tint() {
    auto* legend = window_->findChild<ui::HeatLegend*>(QStringLiteral("heatLegend"));
    QVERIFY(legend);
    QVERIFY(legend->isVisible());
    QVERIFY2(legend->text().contains(QStringLiteral("host clock")), qPrintable(legend->text()));
    panel()->heatAction()->setChecked(false);
    QVERIFY(!legend->isVisible());
    panel()->heatAction()->setChecked(true);
    QVERIFY(legend->isVisible());
  }

  void compare_screenshot() {
    window_->findChild<QDockWidget*>(QStringLiteral("runDock"))->raise();
    window_->graphView()->fitAll();
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("run_dock_compare.png"));
  }

  // Where no GPU can run, Run on GPU is disabled and its tooltip says why and what fixes it.
  void gpu_button_says_why_and_how_to_fix() {
    ui::GpuRunAction* gpu = window_->gpuRunAction();
    QVERIFY(gpu);
    QString why, fix;
    if (ui::RunWorker::deviceAvailable(QStringLiteral("cuda"), &why, &fix)) {
      QVERIFY(gpu->isEnabled());
      QSKIP("this machine has a GPU: the button is enabled");
    }
    QVERIFY(!gpu->isEnabled());
    QVERIFY2(gpu->toolTip().contains(why.toHtmlEscaped()) && gpu->toolTip().contains(fix.toHtmlEscaped()),
             qPrintable(gpu->toolTip()));
    QVERIFY2(fix.contains(QStringLiteral("EXPORTLENS_TORCH=cuda packaging/build.sh")) || fix.contains(QStringLiteral("nvidia-smi")),
             qPrintable(fix));
    auto* bar = window_->findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    QWidget* button = bar->widgetForAction(gpu);
    QVERIFY(button && !button->isEnabled());
    // The tooltip as the user sees it over the disabled button, beside the toolbar.
    QToolTip::showText(button->mapToGlobal(QPoint(button->width() / 2, button->height())), gpu->toolTip(), button);
    QTest::qWait(50);
    QWidget* tip = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
      if (w->inherits("QTipLabel") && w->isVisible()) tip = w;
    QVERIFY(tip);
    const QPixmap bar_image = bar->grab(), tip_image = tip->grab();
    const int x = button->mapTo(bar, QPoint(0, 0)).x();
    QPixmap both(std::max(bar_image.width(), x + tip_image.width() + 8), bar_image.height() + tip_image.height() + 12);
    both.fill(window_->palette().window().color());
    {
      QPainter painter(&both);
      painter.drawPixmap(0, 0, bar_image);
      painter.drawPixmap(std::min(x, both.width() - tip_image.width()), bar_image.height() + 4, tip_image);
    }
    QLabel shot;
    shot.setPixmap(both);
    shot.resize(both.size());
    testing::save_screenshot(&shot, QStringLiteral("gpu_button_tooltip.png"), QSize(200, 40));
    QToolTip::hideText();
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestRunDock)
#include "test_run_dock.moc"

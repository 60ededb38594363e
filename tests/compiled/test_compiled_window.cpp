// Compiled models in the window, on archives real torch 2.13 wrote
// (tests/oracle/aoti_packages.py): an archive with two programs says so in
// the toolbar and its switch changes the graph; a package with its program
// and provenance lists its kernels, a kernel clicked selects exactly the
// nodes torch's kernel_information.json names for it, and a node lists its
// kernels; the source viewer colours the wrapper's C++, finds text with a
// match count and goes to a line; a package without its program opens with no
// graph and offers linking the program file, after which its kernels map by
// the wrapper's source comments or it says why not; running asks first, and
// "No" loads nothing (the wrapper's shared library is not mapped into the
// process); "Yes" runs it off the GUI thread, compares its outputs with the
// program and paints kernel times on the nodes.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextLayout>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/compiled/compiled_controller.h"
#include "ui/compiled/compiled_model_panel.h"
#include "ui/compiled/compiled_outputs_model.h"
#include "ui/compiled/compiled_run_worker.h"
#include "ui/compiled/compiled_session.h"
#include "ui/compiled/kernel_overlay.h"
#include "ui/compiled/kernels_model.h"
#include "ui/compiled/no_program_notice.h"
#include "ui/compiled/program_switch.h"
#include "ui/compiled/source_highlighter.h"
#include "ui/compiled/source_viewer.h"
#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/shell/main_window.h"
#include "support/fixtures.h"
#include "support/screenshot.h"

using namespace exportlens;
using namespace exportlens::testing;
using ui::MainWindow;

namespace {

QString aoti(const QString& name) { return QStringLiteral(EXPORTLENS_AOTI_FIXTURES "/") + name; }

QSet<QString> selected_nodes(ui::GraphScene* scene) {
  QSet<QString> out;
  for (QGraphicsItem* item : scene->selectedItems())
    if (item->type() == ui::NodeItem::Type) out.insert(static_cast<ui::NodeItem*>(item)->nodeName());
  return out;
}

QSet<QString> graph_nodes(const ui::ProgramModel* model) {
  QSet<QString> out;
  if (model->program())
    for (const ir::Node* n : model->program()->graph().nodes()) out.insert(ui::qs(n->name));
  return out;
}

/// Whether a file named like `name` is mapped into this process.
bool mapped_into_process(const QString& name) {
  QFile maps(QStringLiteral("/proc/self/maps"));
  if (!maps.open(QIODevice::ReadOnly)) return false;
  return QString::fromUtf8(maps.readAll()).contains(name);
}

}  // namespace

class TestCompiledWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> window_;

  ui::CompiledController* compiled() const { return window_->compiledController(); }
  ui::CompiledSession* session() const { return compiled()->session(); }
  ui::CompiledModelPanel* panel() const { return compiled()->panel(); }

  void open(const QString& path) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(session()->contents() != nullptr, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->graphScene()->isLayingOut(), 30000);
  }

  void openBothWithKernels() {
    open(aoti("both.pt2"));
    QVERIFY(session()->model());
    QTRY_VERIFY_WITH_TIMEOUT(session()->hasMapping(), 10000);
    QVERIFY2(session()->kernelMap().mapped_kernels > 0, qPrintable(session()->mappingText()));
  }

  /// The library file the compiled model would load, by its file name.
  QString libraryName() const {
    const auto libraries = session()->model()->libraries();
    return libraries.empty() ? QString() : QFileInfo(ui::qs(libraries.front()->entry)).fileName();
  }

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanup() { window_.reset(); }

  void programSwitchOnSeveralPrograms() {
    open(aoti("multi.pt2"));
    ui::ProgramSwitch* box = compiled()->programSwitch();
    QTRY_VERIFY(box->isVisible());
    QVERIFY(box->kindLabel()->isVisible());  // in the status bar
    QVERIFY2(box->kindLabel()->text().contains("2 exported programs"), qPrintable(box->kindLabel()->text()));
    QComboBox* combo = box->comboBox();
    QCOMPARE(combo->count(), 2);
    QCOMPARE(combo->itemText(0), QStringLiteral("forward"));
    QCOMPARE(combo->itemText(1), QStringLiteral("other"));
    QCOMPARE(combo->currentText(), QStringLiteral("forward"));
    const QSet<QString> forward = graph_nodes(window_->programModel());
    QVERIFY(!forward.isEmpty());
    QVERIFY(!session()->model());  // programs only: no compiled model, no dock
    QVERIFY(!compiled()->dock()->isVisible());

    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    combo->setCurrentIndex(1);
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!window_->graphScene()->isLayingOut(), 30000);
    const QSet<QString> other = graph_nodes(window_->programModel());
    QVERIFY(other != forward);
    QVERIFY2(other.contains("a") && other.contains("b"), "the other program takes a and b");
    QCOMPARE(combo->currentText(), QStringLiteral("other"));
    QVERIFY(window_->windowTitle().contains("other"));
    QVERIFY(box->isVisible());  // still the same archive
    save_screenshot(window_.get(), "compiled_program_switch.png");
  }

  void kernelSelectsTheNodesProvenanceNames() {
    openBothWithKernels();
    QVERIFY(compiled()->dock()->isVisible());
    QVERIFY2(panel()->summaryText().contains("1 exported program and 1 compiled model"), qPrintable(panel()->summaryText()));
    const QJsonObject manifest = read_json(aoti("manifest.json")).value("both.pt2").toObject();
    const QJsonObject kernels = manifest.value("kernels").toObject();
    QVERIFY(!kernels.isEmpty());
    QSet<QString> program_nodes;
    for (const QJsonValue& v : manifest.value("program_nodes").toArray()) program_nodes.insert(v.toString());
    QCOMPARE(graph_nodes(window_->programModel()), program_nodes);

    const compiled::CompiledModel& model = *session()->model();
    ui::GraphScene* scene = window_->graphScene();
    int checked = 0;
    QString a_node, its_kernel;
    for (int k = 0; k < int(model.kernels.size()); ++k) {
      const compiled::Kernel& kernel = model.kernels[k];
      QJsonValue named = kernels.value(ui::qs(kernel.handle));
      if (named.isUndefined()) named = kernels.value(ui::qs(kernel.name));
      if (named.isUndefined()) continue;
      QSet<QString> expected;
      for (const QJsonValue& v : named.toArray())
        if (program_nodes.contains(v.toString())) expected.insert(v.toString());
      if (expected.isEmpty()) continue;
      QCOMPARE(ui::qs(kernel.mapped_by), QStringLiteral("provenance"));
      // Clicked in the dock's Kernels table: its nodes, exactly, selected on the canvas.
      panel()->tabs()->setCurrentIndex(ui::CompiledModelPanel::KernelsTab);
      QTableView* table = panel()->kernelsTable();
      const QModelIndex cell = table->model()->index(k, 0);  // launch order until a header is clicked
      table->scrollTo(cell);
      QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
      QCOMPARE(session()->selectedKernel(), k);
      QTRY_COMPARE_WITH_TIMEOUT(selected_nodes(scene), expected, 20000);
      a_node = *expected.begin();
      its_kernel = ui::qs(kernel.name);
      ++checked;
    }
    QVERIFY2(checked > 0, "no kernel of the package names a node of the program");
    // The README's picture: the kernels table tall enough to read, a kernel of three nodes selected.
    // The inspector on one of its nodes, listing the kernels computing it.
    window_->resizeDocks({compiled()->dock()}, {330}, Qt::Vertical);
    for (int k = 0; k < int(model.kernels.size()); ++k)
      if (session()->nodesOf(k).size() == 3) {
        window_->programModel()->selectNode(session()->nodesOf(k).value(1));
        session()->selectKernel(k);
        break;
      }
    QTest::qWait(200);
    QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayingOut(), 20000);
    save_screenshot(window_.get(), "compiled_kernels.png", QSize(1200, 800));

    // A node lists its kernels in the inspector; the link opens the kernel's source at its definition.
    window_->programModel()->selectNode(a_node);
    QTRY_VERIFY(window_->inspector()->plainText().contains("Compiled kernels"));
    QVERIFY2(window_->inspector()->plainText().contains(its_kernel), qPrintable(window_->inspector()->plainText()));
    const int kernel = session()->kernelsOf(a_node).value(0, -1);
    QVERIFY(kernel >= 0);
    QSignalSpy opened(compiled(), &ui::CompiledController::sourceViewerOpened);
    emit window_->inspector()->linkActivated(QUrl(QStringLiteral("kernel-source:%1").arg(kernel)));
    QVERIFY(!opened.isEmpty());
    ui::SourceViewer* viewer = compiled()->sourceViewer();
    QTRY_VERIFY_WITH_TIMEOUT(viewer && !viewer->isReading() && viewer->editor()->blockCount() > 1, 20000);
    const compiled::Kernel& k = model.kernels[kernel];
    const int line = k.defined_in.empty() ? k.wrapper_line : k.definition_line;
    if (line > 0) {
      QCOMPARE(viewer->currentLine(), line);
      QVERIFY2(viewer->editor()->textCursor().block().text().contains(ui::qs(k.name)) ||
                   viewer->editor()->document()->findBlockByNumber(line - 1).text().contains(ui::qs(k.name).left(12)),
               qPrintable(viewer->editor()->textCursor().block().text()));
    }
    // Its launch in the wrapper: the line that calls it.
    if (k.wrapper_line > 0) {
      emit window_->inspector()->linkActivated(QUrl(QStringLiteral("kernel-launch:%1").arg(kernel)));
      QTRY_VERIFY_WITH_TIMEOUT(viewer->entry() == ui::qs(k.wrapper_entry) && !viewer->isReading() &&
                                   viewer->currentLine() == k.wrapper_line, 20000);
      QVERIFY2(viewer->editor()->textCursor().block().text().contains(ui::qs(k.name)),
               qPrintable(viewer->editor()->textCursor().block().text()));
    }
    // The inspector's other link selects the kernel in the dock.
    session()->selectKernel(-1);
    emit window_->inspector()->linkActivated(QUrl(QStringLiteral("kernel:%1").arg(kernel)));
    QCOMPARE(session()->selectedKernel(), kernel);
    QCOMPARE(panel()->tabs()->currentIndex(), int(ui::CompiledModelPanel::KernelsTab));
  }

  void sourceViewerFindsAndColours() {
    openBothWithKernels();
    const compiled::SourceFile* wrapper = session()->model()->wrapper();
    QVERIFY(wrapper);
    compiled()->openSource(ui::qs(wrapper->entry));
    ui::SourceViewer* viewer = compiled()->sourceViewer();
    QTRY_VERIFY_WITH_TIMEOUT(viewer && !viewer->isReading() && viewer->editor()->blockCount() > 10, 20000);
    viewer->resize(1100, 760);
    // Coloured as C++: an #include line and a keyword carry formats.
    QVERIFY(viewer->highlighter());
    QCOMPARE(viewer->highlighter()->language(), ui::SourceHighlighter::Language::Cpp);
    int coloured = 0;
    for (QTextBlock b = viewer->editor()->document()->begin(); b.isValid() && coloured < 5; b = b.next())
      if (b.text().startsWith("#include") && !b.layout()->formats().isEmpty()) ++coloured;
    QVERIFY(coloured > 0);
    // Find: every match counted, the cursor on the first, next and previous move along.
    const int matches = viewer->find(QStringLiteral("AOTI"));
    QVERIFY(matches > 1);
    QCOMPARE(viewer->matchCount(), matches);
    QCOMPARE(viewer->matchLabel()->text(), QStringLiteral("1 of %1").arg(matches));
    QCOMPARE(viewer->editor()->textCursor().selectedText().toUpper(), QStringLiteral("AOTI"));
    viewer->findNext();
    QCOMPARE(viewer->currentMatch(), 2);
    viewer->findPrevious();
    QCOMPARE(viewer->currentMatch(), 1);
    viewer->findPrevious();  // wraps to the last
    QCOMPARE(viewer->currentMatch(), matches);
    QCOMPARE(viewer->editor()->extraSelections().size() >= qMin(matches, 5000), true);
    QCOMPARE(viewer->find(QStringLiteral("no such text anywhere 42")), 0);
    QCOMPARE(viewer->matchLabel()->text(), QStringLiteral("no match"));
    viewer->goToLine(12);
    QCOMPARE(viewer->currentLine(), 12);
    viewer->find(QStringLiteral("run_impl"));
    QVERIFY(viewer->matchCount() > 0);
    save_screenshot(viewer, "compiled_source_viewer.png");
  }

  void largeSourceStaysResponsive() {
    // A wrapper of a large model: tens of thousands of lines, several megabytes.
    QString text;
    int lines = 0;
    for (int i = 0; text.size() <= ui::SourceViewer::kHighlightLimit + 1000; ++i, ++lines)
      text += QStringLiteral("    cpp_fused_add_%1((const float*)(buf%1.data_ptr()), (float*)(buf%2.data_ptr()));  // kernel launch\n")
                  .arg(i)
                  .arg(i + 1);
    ui::SourceViewer viewer;
    viewer.resize(900, 600);
    viewer.show();
    QElapsedTimer timer;
    timer.start();
    viewer.setSource(QStringLiteral("model/data/aotinductor/model/big.wrapper.cpp"), text, lines - 100);
    QVERIFY(!viewer.highlighter());  // no colours over the limit
    QVERIFY(lines > 15000);
    QCOMPARE(viewer.editor()->blockCount(), lines + 1);
    QCOMPARE(viewer.currentLine(), lines - 100);
    QCOMPARE(viewer.find(QStringLiteral("cpp_fused_add_%1(").arg(lines / 2)), 1);  // wraps around to it
    QCOMPARE(viewer.currentLine(), lines / 2 + 1);
    QCOMPARE(viewer.find(QStringLiteral("kernel launch")), lines);
    QTest::qWait(10);  // a paint
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
    // Under the limit: coloured; a Triton kernel (.py) as Python.
    viewer.setSource(QStringLiteral("small.kernel.cpp"), text.left(4000));
    QVERIFY(viewer.highlighter());
    QCOMPARE(viewer.highlighter()->language(), ui::SourceHighlighter::Language::Cpp);
    viewer.setSource(QStringLiteral("triton_poi_fused_add_0.py"),
                     QStringLiteral("@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
                                    "    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]  # the block\n"));
    QCOMPARE(viewer.highlighter()->language(), ui::SourceHighlighter::Language::Python);
    const QTextBlock def = viewer.editor()->document()->findBlockByNumber(1);
    QVERIFY(!def.layout()->formats().isEmpty());
    QCOMPARE(def.layout()->formats().front().start, 0);  // "def" coloured as a keyword
  }

  void packageWithoutItsProgram() {
    QSignalSpy compiled_only(compiled(), &ui::CompiledController::compiledOnlyShown);
    window_->openFile(aoti("plain.pt2"));
    QTRY_VERIFY_WITH_TIMEOUT(!compiled_only.isEmpty(), 60000);
    QVERIFY(!window_->programModel()->loaded());  // no graph
    QVERIFY(window_->graphScene()->nodeItems().isEmpty());
    QVERIFY(!window_->findChild<QMessageBox*>("loadErrorBox"));  // not an error
    QVERIFY(window_->windowTitle().contains("plain.pt2"));
    QVERIFY(compiled()->notice()->isVisible());
    QVERIFY(compiled()->notice()->linkButton()->isVisible());
    QVERIFY(panel()->linkButton()->isVisible());
    QVERIFY(compiled()->linkAction()->isEnabled());
    QVERIFY(session()->model());
    QVERIFY(!session()->model()->kernels.empty());
    QVERIFY2(panel()->summaryText().contains("AOTInductor package"), qPrintable(panel()->summaryText()));
    QVERIFY2(panel()->mappingText().contains("Link Program File"), qPrintable(panel()->mappingText()));
    QVERIFY(compiled()->programSwitch()->kindLabel()->text().contains("AOTInductor package"));
    QVERIFY(compiled()->programSwitch()->kindLabel()->isVisible());
    QVERIFY(!compiled()->programSwitch()->isVisible());  // one program or none: no switch
    save_screenshot(window_.get(), "compiled_plain_no_program.png");

    // Linked to the program it was compiled from: the graph, and the kernels mapped by source comments or why not.
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    compiled()->linkProgramFile(aoti("program.pt2"));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(session()->hasMapping(), 10000);
    QVERIFY(!compiled()->notice()->isVisible());
    QVERIFY(!window_->graphScene()->nodeItems().isEmpty());
    QVERIFY(session()->model());  // still plain.pt2's compiled model
    QCOMPARE(QFileInfo(session()->archivePath()).fileName(), QStringLiteral("plain.pt2"));
    QVERIFY(session()->programOrigin().contains("program.pt2"));
    const compiled::KernelMap& map = session()->kernelMap();
    if (map.mapped_kernels > 0) {
      for (int k = 0; k < int(map.nodes_of_kernel.size()); ++k)
        if (!map.nodes_of_kernel[k].empty())
          QCOMPARE(ui::qs(session()->model()->kernels[k].mapped_by), QStringLiteral("source comment"));
    } else {
      QVERIFY2(session()->mappingText().contains("without provenance"), qPrintable(session()->mappingText()));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!window_->graphScene()->isLayingOut(), 30000);
    save_screenshot(window_.get(), "compiled_plain_linked.png");
  }

  void openedWithProgramOptions() {
    // exportlens open multi.pt2 --program other
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openArchive(aoti("multi.pt2"), QStringLiteral("other"));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QVERIFY(graph_nodes(window_->programModel()).contains("a"));
    QTRY_COMPARE(compiled()->programSwitch()->comboBox()->currentText(), QStringLiteral("other"));
    // exportlens open plain.pt2 --program-file program.pt2: shown without a graph, then linked.
    shown.clear();
    window_->openArchive(aoti("plain.pt2"), QString(), aoti("program.pt2"));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(session()->hasMapping(), 10000);
    QCOMPARE(QFileInfo(session()->archivePath()).fileName(), QStringLiteral("plain.pt2"));
    QCOMPARE(QFileInfo(compiled()->linkedProgram()).fileName(), QStringLiteral("program.pt2"));
    QVERIFY(!compiled()->notice()->isVisible());
  }

  void runAsksFirstAndNoLoadsNothing() {
    openBothWithKernels();
    const QString library = libraryName();
    QVERIFY(!library.isEmpty());
    QVERIFY(!mapped_into_process(library));
    // The real question, answered No.
    bool asked = false;
    QTimer::singleShot(0, this, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      QVERIFY(box);
      QCOMPARE(box->objectName(), QStringLiteral("compiledRunApprovalBox"));
      QVERIFY(box->informativeText().contains("both.pt2"));
      asked = true;
      box->button(QMessageBox::No)->click();
    });
    QSignalSpy declined(compiled(), &ui::CompiledController::runDeclined);
    QSignalSpy started(compiled()->runWorker(), &ui::CompiledRunWorker::started);
    compiled()->runAction()->trigger();
    QVERIFY(asked);
    QCOMPARE(declined.size(), 1);
    QVERIFY(started.isEmpty());
    QVERIFY(!compiled()->runWorker()->isBusy());
    QVERIFY(!session()->run());
    QVERIFY2(!mapped_into_process(library), qPrintable(library + " is mapped into the process"));
    QVERIFY(panel()->runText().contains("Not run"));
  }

  void cancelStopsWaitingForARun() {
    openBothWithKernels();
    compiled()->setRunApproval([](const QString&, const QString&) { return true; });
    panel()->setInputsFile(aoti("inputs.pt"));
    QSignalSpy cancelled(compiled()->runWorker(), &ui::CompiledRunWorker::cancelled);
    QSignalSpy finished(compiled()->runWorker(), &ui::CompiledRunWorker::finished);
    QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
    QVERIFY(panel()->cancelButton()->isEnabled());
    QTest::mouseClick(panel()->cancelButton(), Qt::LeftButton);
    QCOMPARE(cancelled.size(), 1);
    QVERIFY(!compiled()->runWorker()->isBusy());
    QVERIFY(!panel()->cancelButton()->isEnabled());
    QVERIFY(panel()->runButton()->isEnabled());
    QVERIFY(panel()->runText().startsWith("Cancelled"));
    QTest::qWait(500);
    QVERIFY(finished.isEmpty());  // the run's result, if it ends meanwhile, is dropped
    QVERIFY(!session()->run());
  }

  void runComparesAndPaintsKernelTimes() {
    openBothWithKernels();
    int asked = 0;
    compiled()->setRunApproval([&](const QString&, const QString&) {
      ++asked;
      return true;
    });
    panel()->setInputsFile(aoti("inputs.pt"));
    QSignalSpy finished(compiled()->runWorker(), &ui::CompiledRunWorker::finished);
    QSignalSpy failed(compiled()->runWorker(), &ui::CompiledRunWorker::failed);
    QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
    QCOMPARE(asked, 1);
    QVERIFY(panel()->cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 300000);
    QVERIFY2(failed.isEmpty(), qPrintable(panel()->runText()));
    const ui::CompiledComparisonPtr& run = session()->run();
    QVERIFY(run);
    QVERIFY2(run->compared && run->all_close, qPrintable(panel()->runText()));
    QVERIFY(panel()->outputsModel()->rowCount() > 0);
    QVERIFY(panel()->runText().contains("close"));
    QVERIFY(!panel()->cancelButton()->isEnabled());
    // Kernel times on the mapped nodes: both.pt2 is compiled with cpp.enable_kernel_profile, so every kernel is timed
    // and every node a kernel computes carries its kernels' time.
    QCOMPARE(session()->kernelMilliseconds().size(), qsizetype(session()->model()->kernels.size()));
    QCOMPARE(compiled()->overlay()->nodeMilliseconds().size(), compiled()->overlay()->fractions().size());
    QVERIFY2(!compiled()->overlay()->nodeMilliseconds().isEmpty(), qPrintable(ui::qs(run->compiled.kernels_note)));
    QVERIFY(panel()->kernelsModel()->index(0, ui::KernelsModel::Time).data().toDouble() > 0);
    const QString node = compiled()->overlay()->nodeMilliseconds().keys().front();
    QVERIFY(compiled()->overlay()->labels().value(node).contains(" ms"));
    QTRY_VERIFY_WITH_TIMEOUT(!window_->graphScene()->isLayingOut(), 30000);
    save_screenshot(window_.get(), "compiled_run.png");
  }
};

// QTEST_MAIN's set-up, then out without static destructors, as exportlens
// does (app/main.cpp): the compiled runs here start LibTorch's profiler,
// whose thread races LibTorch's exit-time destructors.
int main(int argc, char** argv) {
  int code = 0;
  {
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestCompiledWindow tc;
    QTEST_SET_MAIN_SOURCE_PATH
    code = QTest::qExec(&tc, argc, argv);
  }
  std::fflush(nullptr);
  std::_Exit(code);
}
#include "test_compiled_window.moc"

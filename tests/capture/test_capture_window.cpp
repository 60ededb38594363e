// Captured Python exports in the window: File › Open on a capture folder
// lists every export call in the Export attempts dock, opens the failed one
// with torch's message, the user line, the violated spec entries with torch's
// fixes, the guards and symbols; the draft program is on the canvas with the
// attempt's own spec in the Dynamic shapes editor, which re-solves to torch's
// verdict; Apply puts torch's fixes in and the re-solve is ok; guards and
// nodes select each other; Re-run runs the script with the edited spec and
// the new attempt (exported) comes in beside the old; a data-dependent error
// names the `.item()` line; File › Capture Python Export… streams the
// script's output and opens what it captured; Cancel stops a script.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeView>

#include <memory>

#include "engine/capture/capture_folder.h"
#include "ui/capture/attempts_model.h"
#include "ui/capture/capture_controller.h"
#include "ui/capture/capture_dialog.h"
#include "ui/capture/capture_panel.h"
#include "ui/capture/capture_session.h"
#include "ui/core/program_model.h"
#include "ui/diagnostics/attempt_view.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shell/main_window.h"
#include "support/fixtures.h"
#include "support/screenshot.h"

using namespace exportlens;
using ui::AttemptView;
using ui::MainWindow;

namespace {

QString fixture(const QString& name) { return QStringLiteral(EXPORTLENS_CAPTURE_FIXTURES "/") + name; }
QString script(const QString& name) { return QStringLiteral(EXPORTLENS_SOURCE_DIR "/tests/capture/scripts/") + name; }

}  // namespace

class TestCaptureWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir tmp_;

  ui::CaptureController* capture() const { return window_->captureController(); }
  AttemptView* view() const { return capture()->panel()->attemptView(); }

  // Opens a capture and waits until its current attempt's program (if any) is on screen.
  void openCapture(const QString& path, bool withProgram = true) {
    QSignalSpy opened(capture()->session(), &ui::CaptureSession::opened);
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(path);
    QVERIFY(opened.wait(30000));
    if (withProgram) QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(window_->specSession()->state() != ui::SpecSession::State::Solving, 30000);
    QCoreApplication::processEvents();  // the queued spec reset
    QTRY_VERIFY_WITH_TIMEOUT(window_->specSession()->state() != ui::SpecSession::State::Solving, 30000);
  }

 private slots:
  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->resize(1600, 1000);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanup() { window_.reset(); }

  void constraintViolation() {
    openCapture(fixture("cv_relation"));
    const auto c = capture::read_capture(fixture("cv_relation").toStdString());
    const capture::Attempt& a = c.attempts.front();
    QVERIFY(capture()->dock()->isVisible());
    QTableView* attempts = capture()->panel()->attemptsTable();
    QCOMPARE(attempts->model()->rowCount(), 1);
    QCOMPARE(attempts->model()->index(0, ui::AttemptsModel::Outcome).data().toString(), QStringLiteral("✗"));
    QCOMPARE(attempts->model()->index(0, ui::AttemptsModel::Failure).data().toString(), QStringLiteral("Constraint violation"));
    // torch's message first, the user line it arose from.
    QVERIFY(view()->headline()->text().contains(QString::fromStdString(a.error->message).section('\n', 0, 0).toHtmlEscaped()));
    QVERIFY(view()->whereLabel()->text().contains(QStringLiteral("cv_relation.py:10")));
    QCOMPARE(view()->messageText()->toPlainText(), QString::fromStdString(a.error->message));
    // The violated entry, with torch's fix.
    QVERIFY(view()->sectionShown(AttemptView::SpecEntries));
    const QAbstractItemModel* entries = view()->specEntriesTable()->model();
    QCOMPARE(entries->rowCount(), 1);
    QCOMPARE(entries->index(0, ui::ViolatedEntriesModel::Dim).data().toString(), QStringLiteral("dy"));
    QCOMPARE(entries->index(0, ui::ViolatedEntriesModel::Input).data().toString(), QStringLiteral("y.shape[0]"));
    QCOMPARE(entries->index(0, ui::ViolatedEntriesModel::Fixes).data().toString(), QStringLiteral("dy = dx"));
    // The draft program is on the canvas, and the attempt's own spec in the editor:
    // ExportLens re-solves it there to torch's verdict.
    QVERIFY(window_->programModel()->loaded());
    QCOMPARE(window_->specSession()->state(), ui::SpecSession::State::Violation);
    QVERIFY(window_->specSession()->result()->suggested_fixes_text.find("dy = dx") != std::string::npos);
    testing::save_screenshot(window_.get(), QStringLiteral("capture_constraint_violation.png"));
    // Guards and nodes made by the same user line select each other.
    QTreeView* guards = view()->guardsTree();
    QCOMPARE(guards->model()->rowCount(), 1);
    const QString node = guards->model()->index(0, 0).data(ui::NodeNameRole).toString();
    QVERIFY(!node.isEmpty());
    view()->sections()->setCurrentIndex(AttemptView::Guards);
    guards->setCurrentIndex(guards->model()->index(0, 0));
    QCOMPARE(window_->programModel()->selectedName(), node);
    guards->setCurrentIndex(QModelIndex());
    window_->programModel()->selectNode(QString());
    window_->programModel()->selectNode(node);
    QCOMPARE(guards->currentIndex().row(), 0);
    // The frames behind the guard, the user's in bold.
    QVERIFY(guards->model()->rowCount(guards->model()->index(0, 0)) > 3);
    // Apply: torch's fixes into the spec; the re-solve is ok.
    QVERIFY(view()->applyFixesButton()->isEnabled());
    QSignalSpy solved(window_->specSession(), &ui::SpecSession::resultChanged);
    view()->applyFixesButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(window_->specSession()->state(), ui::SpecSession::State::Ok, 30000);
    // Re-run: the script again with the edited spec in place of that call's; the new attempt is exported.
    QSignalSpy rows(capture()->session(), &ui::CaptureSession::rowsChanged);
    capture()->panel()->rerunButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(attempts->model()->rowCount() == 2, 120000);
    QCOMPARE(attempts->model()->index(1, ui::AttemptsModel::Index).data().toString(), QStringLiteral("↻ 1"));
    QCOMPARE(attempts->model()->index(1, ui::AttemptsModel::Outcome).data().toString(), QStringLiteral("✓"));
    QCOMPARE(capture()->session()->current(), 1);
    QVERIFY(view()->headline()->text().contains(QStringLiteral("exported")));
    QTRY_VERIFY_WITH_TIMEOUT(window_->programModel()->loaded() &&
                                 window_->programModel()->loaded()->displayName.contains(QStringLiteral("attempt 1")),
                             30000);
  }

  void dataDependentError() {
    openCapture(fixture("dd_item"));
    QVERIFY(view()->sectionShown(AttemptView::DataDependent));
    QCOMPARE(view()->sections()->currentIndex(), int(AttemptView::DataDependent));
    const QString text = view()->dataDependentText()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("x.sum().item()")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("dd_item.py:10")));
    QVERIFY(text.contains(QStringLiteral("torch.cond")));  // a branch on data: the tutorials' answer
    QVERIFY(window_->programModel()->loaded());  // the draft program
    testing::save_screenshot(window_.get(), QStringLiteral("capture_data_dependent.png"));
    // Without a draft, its partial graph.
    openCapture(fixture("dd_item_nodraft"));
    QVERIFY(capture()->session()->currentRow()->programKind.contains(QStringLiteral("partial graph")));
    QVERIFY(window_->programModel()->loaded()->graph().find("item"));
  }

  void attemptWithoutProgram() {
    // A capture whose failed attempt left nothing: the window says so and shows no stale graph.
    openCapture(fixture("cv_specialized"));
    QVERIFY(window_->programModel()->loaded());
    const QString folder = tmp_.filePath("no_program");
    QDir().mkpath(folder + "/attempt_001");
    QFile manifest(folder + "/manifest.json");
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write("{\"format\": \"exportlens-capture\", \"format_version\": 1, \"script\": \"/x/s.py\",\n"
"                       \"attempts\": [{\"index\": 1, \"dir\": \"attempt_001\", \"ok\": false, \"failure_class\": \"other\"}]}");
    manifest.close();
    QSignalSpy opened(capture()->session(), &ui::CaptureSession::opened);
    window_->openFile(folder);
    QVERIFY(opened.wait(30000));
    QTRY_VERIFY(!window_->programModel()->loaded());
    QVERIFY(window_->statusText().contains(QStringLiteral("left no program")));
  }

  void captureDialogStreamsAndCancels() {
    ui::CaptureDialog* dialog = capture()->dialog();
    capture::CaptureRequest request;
    request.script = script("catch_then_ok.py").toStdString();
    request.python = EXPORTLENS_PYTHON;
    request.output_dir = tmp_.filePath("dialog_capture").toStdString();
    request.draft = false;
    dialog->setRequest(request);
    dialog->show();
    QSignalSpy opened(capture()->session(), &ui::CaptureSession::opened);
    dialog->start();
    QVERIFY(dialog->isRunning());
    QVERIFY(opened.wait(120000));
    QVERIFY(dialog->outputView()->toPlainText().contains(QStringLiteral("=== export 2: ok")));
    QCOMPARE(capture()->panel()->attemptsTable()->model()->rowCount(), 2);
    testing::save_screenshot(dialog, QStringLiteral("capture_dialog.png"));
    // A script that never ends: Cancel stops it.
    QFile slow(tmp_.filePath("slow.py"));
    QVERIFY(slow.open(QIODevice::WriteOnly));
    slow.write("import time\nprint('started', flush=True)\ntime.sleep(600)\n");
    slow.close();
    request.script = tmp_.filePath("slow.py").toStdString();
    request.output_dir = tmp_.filePath("slow_capture").toStdString();
    dialog->setRequest(request);
    dialog->start();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->outputView()->toPlainText().contains(QStringLiteral("started")), 30000);
    dialog->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning(), 10000);
    QVERIFY(dialog->statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
  }
};

QTEST_MAIN(TestCaptureWindow)
#include "test_capture_window.moc"

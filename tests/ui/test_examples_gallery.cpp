// The Examples page and C++ models in the window, against torch.export's own
// results (the oracle fixtures each gallery example names): the page and the
// Examples menu list every example; tracing one that torch exports shows the
// program torch gives (placeholders, shapes, ops, signature); one that torch
// rejects shows torch's exception type on the page and keeps the program on
// screen, and a violation's items and fixes in the Violations dock, whose
// Apply fixes re-traces; an edited spec re-traces; the README's model library
// opens like a .pt2. Screenshots of each go to the build's screenshots/.
#include <QtTest>

#include <QAction>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

#include <memory>

#include "engine/trace/gallery/gallery_models.h"
#include "engine/trace/trace_facade.h"
#include "support/fixtures.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_model.h"
#include "ui/examples/examples_gallery.h"
#include "ui/examples/trace_error_view.h"
#include "ui/shapes/violations_model.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/main_window.h"
#include "ui/shell/trace_controller.h"
#include "ui/shell/recent_files.h"
#include "support/screenshot.h"

using namespace exportlens;
using exportlens::testing::fixture_meta;
using ui::MainWindow;

namespace {

const trace::ModelSummary& summary(const std::string& name) {
  static const auto models = trace::gallery_models();
  for (const auto& m : models)
    if (m.name == name) return m;
  qFatal("no gallery example %s", name.c_str());
}

QStringList strings(const QJsonArray& a) {
  QStringList out;
  for (const auto& v : a) out << v.toString();
  return out;
}

/// The lines of torch's "Suggested fixes:" block in `message`, trimmed.
QStringList suggested_fixes(const QString& message) {
  const QString block = message.section(QStringLiteral("Suggested fixes:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
  QStringList lines;
  for (const QString& line : block.split('\n', Qt::SkipEmptyParts)) lines << line.trimmed();
  return lines;
}

/// torch's spelling of a call_function target ("aten.add.Tensor").
QString python_target(const ir::Target& t) {
  const std::string& q = t.qualified();
  if (t.is_higher_order()) return QString::fromStdString(t.op_name());
  if (q.rfind("torch.ops.", 0) == 0) return QString::fromStdString(q.substr(10));
  return QString::fromStdString(q);
}

QStringList ops_of(const ir::ExportedProgram& ep) {
  QStringList ops;
  for (const ir::Node* n : ep.graph().nodes())
    if (n->op == ir::OpKind::CallFunction) ops << python_target(n->target);
  return ops;
}

QStringList dims_of(const ir::Node* placeholder) {
  QStringList dims;
  if (const ir::TensorMeta* m = placeholder->value.tensor())
    for (const auto& d : m->sizes) dims << QString::fromStdString(d.str());
  return dims;
}

}  // namespace

class TestExamplesGallery : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  ui::ExamplesGallery* gallery() const { return window_->examplesGallery(); }
  const ir::ExportedProgram& shown() const { return *window_->programModel()->loaded()->program; }

  /// Presses Trace for `name` (with `spec` typed in, if given) and waits for the outcome.
  bool trace(const QString& name, const std::optional<QString>& spec, bool expect_program) {
    gallery()->selectExample(name);
    if (spec) gallery()->specEditor()->setPlainText(*spec);
    return press(gallery()->traceButton(), expect_program);
  }

  /// Clicks `button` and waits for the trace it starts.
  bool press(QPushButton* button, bool expect_program) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    button->click();
    if (!QTest::qWaitFor([&] { return !shown.isEmpty() || !failed.isEmpty(); }, 120000)) return false;
    if (!failed.isEmpty() && expect_program) qWarning() << "trace failed:" << failed.front().at(1).toString();
    return expect_program ? !shown.isEmpty() : !failed.isEmpty();
  }

  /// The program on screen is torch's for `fixture`: placeholders with their
  /// shapes, the op sequence, and the signature the dock lists.
  void compare_with_fixture(const QString& fixture) {
    const QJsonObject meta = fixture_meta(fixture);
    QCOMPARE(meta["status"].toString(), QStringLiteral("ok"));
    const ir::ExportedProgram& ep = shown();
    const QJsonObject want = meta["placeholders"].toObject();
    QStringList names;
    for (const ir::Node* p : ep.graph().placeholders()) {
      names << QString::fromStdString(p->name);
      QVERIFY2(want.contains(names.back()), qPrintable("torch has no placeholder " + names.back()));
      QCOMPARE(dims_of(p), strings(want[names.back()].toArray()));
    }
    QCOMPARE(names.size(), want.size());
    QCOMPARE(ops_of(ep), strings(meta["ops"].toArray()));
    const QJsonObject sig = meta["graph_signature"].toObject();
    QCOMPARE(window_->signatureTable()->model()->rowCount(),
             sig["input_specs"].toArray().size() + sig["output_specs"].toArray().size());
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // keep QSettings out of the user's config
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensGalleryTest"));
    ui::RecentFiles().clear();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  /// With no program open the window shows the Examples page, listing them all.
  void start_page_lists_every_example() {
    QCOMPARE(window_->centralTabs()->currentWidget(), static_cast<QWidget*>(gallery()));
    QStringList want;
    for (const auto& m : trace::gallery_models()) want << QString::fromStdString(m.name);
    QVERIFY(want.size() > 20);
    QStringList listed = gallery()->visibleNames();
    listed.sort();
    want.sort();
    QCOMPARE(listed, want);
    // The Examples menu: one action per example, in family submenus.
    QStringList in_menu;
    for (QAction* family : window_->traceController()->examplesMenu()->actions())
      if (family->menu())
        for (QAction* a : family->menu()->actions()) in_menu << a->text();
    in_menu.sort();
    QCOMPARE(in_menu, want);
    testing::save_screenshot(window_.get(), QStringLiteral("examples_start_page.png"));
  }

  /// The search box narrows the list to examples whose name, family,
  /// description or outcome mention the text.
  void search_filters() {
    gallery()->searchField()->setText(QStringLiteral("DATA-DEPENDENT"));
    QStringList want;
    for (const auto& m : trace::gallery_models()) {
      const QString haystack = QString::fromStdString(m.name + "\n" + m.family + "\n" + m.description + "\n" + m.document) +
                               "\n" + ui::expected_outcome_text(m.expected);
      if (haystack.contains(QStringLiteral("data-dependent"), Qt::CaseInsensitive))
        want << QString::fromStdString(m.name);
    }
    QVERIFY(!want.isEmpty());
    QStringList listed = gallery()->visibleNames();  // grouped by family: compare as sets
    listed.sort();
    want.sort();
    QCOMPARE(listed, want);
    QVERIFY(want.contains(QStringLiteral("bad1_nonstrict")));  // torch: GuardOnDataDependentSymNode
    gallery()->searchField()->clear();
    QCOMPARE(gallery()->visibleNames().size(), int(trace::gallery_models().size()));
  }

  /// MyModule exports in torch: the window shows the same program.
  void exporting_example_shows_torchs_program() {
    const auto& e = summary("my_module");
    QVERIFY(trace(QStringLiteral("my_module"), std::nullopt, true));
    compare_with_fixture(QString::fromStdString(e.oracle));
    QCOMPARE(window_->centralTabs()->currentWidget(), static_cast<QWidget*>(window_->graphView()));
    QVERIFY(window_->windowTitle().contains(QStringLiteral("my_module")));
    QVERIFY(gallery()->resultLabel()->text().contains(QStringLiteral("Exported")));
    testing::save_screenshot(window_.get(), QStringLiteral("examples_my_module.png"));
  }

  /// Bad1 (if x.sum() > 0) fails in torch: the page shows torch's exception
  /// type; the window keeps the program it showed.
  /// example:NAME is a program source like a file: opening it (the command
  /// line, Open Recent) traces the example.
  void example_source_opens_as_a_trace() {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(QStringLiteral("example:book_mlp"));
    QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 120000));
    QCOMPARE(shown.front().at(0).toString(), QStringLiteral("example:book_mlp"));
    compare_with_fixture(QStringLiteral("book_mlp"));
    QCOMPARE(window_->centralTabs()->currentWidget(), static_cast<QWidget*>(window_->graphView()));
  }

  void failing_example_shows_torchs_error() {
    const auto& e = summary("bad1_nonstrict");
    const QJsonObject meta = fixture_meta(QString::fromStdString(e.oracle));
    QCOMPARE(meta["status"].toString(), QStringLiteral("error"));
    const ui::LoadedProgramPtr before = window_->programModel()->loaded();
    QVERIFY(trace(QStringLiteral("bad1_nonstrict"), std::nullopt, false));
    QCOMPARE(window_->programModel()->loaded(), before);
    QCOMPARE(window_->centralTabs()->currentWidget(), static_cast<QWidget*>(gallery()));
    ui::TraceErrorView* error = gallery()->errorView();
    QVERIFY(error->isVisible());
    QCOMPARE(error->failure().type, meta["error_type"].toString());
    QVERIFY(error->toPlainText().contains(meta["error_type"].toString()));
    QVERIFY(!error->failure().message.isEmpty());
    QVERIFY(window_->statusText().contains(QStringLiteral("GuardOnDataDependentSymNode")));
    testing::save_screenshot(window_.get(), QStringLiteral("examples_bad1_error.png"));
  }

  /// Foo violates its spec in torch: the Violations dock comes up with each
  /// violated spec item and torch's suggested fixes; its Apply fixes puts
  /// torch's fixed spec in the page's editor and re-traces, which exports
  /// (d1 = 4, dy = dx: torch exports Foo with them); then the dock shows the
  /// new program's own (solved) content again.
  void violation_shows_in_the_dock_and_fixes_apply() {
    const auto& e = summary("foo_constraint_violation");
    const QJsonObject torch = fixture_meta(QString::fromStdString(e.oracle));
    QCOMPARE(torch["status"].toString(), QStringLiteral("error"));
    const QString message = torch["error_message"].toString();
    QVERIFY(trace(QStringLiteral("foo_constraint_violation"), std::nullopt, false));
    QCOMPARE(gallery()->errorView()->failure().type, torch["error_type"].toString());

    ui::ViolationsPanel* panel = window_->violationsPanel();
    QVERIFY(panel->showsTraceReport());
    QVERIFY(panel->isVisible());  // its dock tab raised
    QVERIFY2(panel->verdictText().contains(message.section('\n', 0, 0)), qPrintable(panel->verdictText()));
    // Each of torch's "  - " lines is a row (torch repeats one; compare as sets).
    QSet<QString> want, listed;
    for (const QString& line : message.section(QStringLiteral("\nSuggested fixes:"), 0, 0).split('\n'))
      if (line.startsWith(QStringLiteral("  - "))) want << line.mid(4).trimmed();
    ui::ViolationsModel* model = panel->model();
    for (int r = 0; r < model->rowCount(); ++r)
      listed << model->index(r, ui::ViolationsModel::Problem).data().toString().trimmed();
    QCOMPARE(listed, want);
    const QStringList fixes = suggested_fixes(message);
    QCOMPARE(fixes, (QStringList{QStringLiteral("d1 = 4"), QStringLiteral("dy = dx")}));
    QStringList shown_fixes = panel->fixesText()->toPlainText().split('\n', Qt::SkipEmptyParts);
    for (QString& line : shown_fixes) line = line.trimmed();
    QCOMPARE(shown_fixes, fixes);
    // The page shows the same fixes, ahead of the long message.
    const QString page = gallery()->errorView()->toPlainText();
    QVERIFY2(page.indexOf(QStringLiteral("dy = dx")) < page.indexOf(QStringLiteral("Constraints violated")),
             qPrintable(page));
    QVERIFY(panel->applyButton()->isEnabled());
    testing::save_screenshot(window_.get(), QStringLiteral("examples_foo_violation.png"));

    QVERIFY(press(panel->applyButton(), true));
    QCOMPARE(gallery()->specEditor()->toPlainText(), gallery()->errorView()->failure().fixedSpec);
    QVERIFY(gallery()->errorView()->isHidden());
    // d1 = 4 and dy = dx: x and y are (s, 4) with one symbol s.
    QStringList x, y;
    for (const ir::Node* p : shown().graph().placeholders()) {
      if (p->name == "x") x = dims_of(p);
      if (p->name == "y") y = dims_of(p);
    }
    QCOMPARE(x.size(), 2);
    QCOMPARE(x.value(1), QStringLiteral("4"));
    QVERIFY2(x[0].startsWith('s'), qPrintable(x.join(", ")));
    QCOMPARE(y, x);
    QVERIFY(!panel->showsTraceReport());
    QVERIFY(QTest::qWaitFor([&] { return panel->verdictText() == QStringLiteral("The spec holds: no violations."); },
                            60000));
  }

  /// The spec is editable: example 3 with its own spec violates (as in
  /// torch); with the seed's fixed spec typed in, it exports torch's program.
  void edited_spec_retraces() {
    const auto& unfixed = summary("dynamic_shapes_example3_unfixed");
    const auto& fixed = summary("dynamic_shapes_example3_fixed");
    const QString name = QString::fromStdString(unfixed.name);
    QVERIFY(trace(name, std::nullopt, false));
    const QJsonObject torch_unfixed = fixture_meta(QString::fromStdString(unfixed.oracle));
    QCOMPARE(gallery()->errorView()->failure().type, torch_unfixed["error_type"].toString());
    QCOMPARE(gallery()->errorView()->failure().message.section('\n', 0, 0),
             torch_unfixed["error_message"].toString().section('\n', 0, 0));
    QCOMPARE(gallery()->specEditor()->toPlainText(), QString::fromStdString(unfixed.dynamic_shapes));
    // Apply suggested fixes: torch's next round (the oracle pasted its own fixes back).
    const QJsonArray rounds =
        exportlens::testing::read_json(exportlens::testing::fixtures_dir() + "/gallery_example3_refixed/meta.json")["rounds"]
            .toArray();
    QVERIFY(rounds.size() >= 2);
    QVERIFY(!gallery()->applyFixesButton()->isHidden());
    QVERIFY(press(gallery()->applyFixesButton(), false));
    QCOMPARE(gallery()->errorView()->failure().type, torch_unfixed["error_type"].toString());
    QCOMPARE(gallery()->errorView()->failure().message.section('\n', 0, 0),
             rounds[1].toObject()["message"].toString().section('\n', 0, 0));
    QVERIFY(gallery()->specEditor()->toPlainText() != QString::fromStdString(unfixed.dynamic_shapes));
    testing::save_screenshot(window_.get(), QStringLiteral("examples_suggested_fixes.png"));
    QVERIFY(trace(name, QString::fromStdString(fixed.dynamic_shapes), true));
    compare_with_fixture(QString::fromStdString(fixed.oracle));
    QVERIFY(gallery()->errorView()->isHidden());
    // F5 traces the same model with the same edited spec again.
    QSignalSpy again(window_.get(), &MainWindow::programShown);
    window_->reload();
    QVERIFY(again.wait(120000));
    compare_with_fixture(QString::fromStdString(fixed.oracle));
  }

  /// Examples › Re-trace with the Dynamic Shapes Spec: the dock's spec (here
  /// the one recorded from the traced program) goes back to the tracer, and
  /// the program is torch's again; the page shows the spec it used.
  void dock_spec_retraces() {
    const auto& fixed = summary("dynamic_shapes_example3_fixed");
    QVERIFY(window_->findChild<QAction*>(QStringLiteral("retraceAction"))->isEnabled());
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    window_->retraceWithShapesSpec();
    QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty() || !failed.isEmpty(); }, 120000));
    QVERIFY2(failed.isEmpty(), qPrintable(gallery()->errorView()->failure().message));
    compare_with_fixture(QString::fromStdString(fixed.oracle));
    QVERIFY(gallery()->specEditor()->toPlainText().contains(QStringLiteral("dynamic_shapes")));
  }

  /// Cancel drops the trace's result: the window keeps its program.
  void cancelled_trace_keeps_the_program() {
    const ui::LoadedProgramPtr before = window_->programModel()->loaded();
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    gallery()->selectExample(QStringLiteral("book_mlp"));
    gallery()->traceButton()->click();
    QVERIFY(window_->isLoading());
    QVERIFY2(window_->statusText().startsWith(QStringLiteral("Tracing book_mlp")), qPrintable(window_->statusText()));
    window_->loader()->cancel();
    QVERIFY(!window_->isLoading());
    QCOMPARE(gallery()->resultLabel()->text(), QStringLiteral("Trace cancelled."));
    QTest::qWait(500);  // the abandoned trace finishes and is dropped
    QCOMPARE(shown.size(), 0);
    QCOMPARE(window_->programModel()->loaded(), before);
  }

  /// The README's model, built as a shared library against the SDK, opens
  /// like a file: the same layers as the book's MLP (torch's fixture), with
  /// its Dim.AUTO batch dimension symbolic; it joins Open Recent.
  void readme_model_library_opens() {
    const QString library = QStringLiteral(EXPORTLENS_README_MODEL);
    QSignalSpy opened(window_.get(), &MainWindow::programShown);
    window_->openFile(library);  // as from Open Recent or the command line
    QVERIFY(opened.wait(120000));
    const QJsonObject book = fixture_meta(QString::fromStdString(summary("book_mlp").oracle));
    const ir::ExportedProgram& ep = shown();
    QCOMPARE(ops_of(ep), strings(book["ops"].toArray()));
    const QJsonObject want = book["placeholders"].toObject();
    for (const ir::Node* p : ep.graph().placeholders()) {
      const QString n = QString::fromStdString(p->name);
      if (n == QStringLiteral("x")) {
        const QStringList dims = dims_of(p);
        QCOMPARE(dims.size(), 2);
        QVERIFY2(dims[0].startsWith('s'), qPrintable(dims.join(", ")));  // Dim.AUTO: dynamic
        QCOMPARE(dims[1], strings(want["x"].toArray())[1]);
      } else {
        QCOMPARE(dims_of(p), strings(want[n].toArray()));
      }
    }
    QVERIFY(window_->windowTitle().contains(QFileInfo(library).fileName()));
    QCOMPARE(ui::RecentFiles().files().value(0), library);
    testing::save_screenshot(window_.get(), QStringLiteral("examples_readme_model.png"));
  }

  /// A file that is not a model library: a clear error, no crash.
  void bad_library_is_named() {
    QTemporaryDir dir;
    const QString bogus = dir.filePath(QStringLiteral("not_a_model.so"));
    QFile f(bogus);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not an ELF file");
    f.close();
    const ui::LoadedProgramPtr before = window_->programModel()->loaded();
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    window_->openFile(bogus);
    QVERIFY(!failed.isEmpty() || failed.wait(30000));
    QVERIFY2(failed.front().at(1).toString().contains(QStringLiteral("not_a_model.so")),
             qPrintable(failed.front().at(1).toString()));
    QCOMPARE(window_->programModel()->loaded(), before);
    auto* dialog = window_->findChild<QDialog*>(QStringLiteral("traceErrorDialog"));
    QVERIFY(dialog && dialog->isVisible());
    testing::save_screenshot(dialog, QStringLiteral("examples_bad_library.png"));
    dialog->close();
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestExamplesGallery)
#include "test_examples_gallery.moc"

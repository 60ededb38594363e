// The dynamic-shapes docks on torch.export's Foo (x + y + ones(4), exported
// with every dim Dim.AUTO): the recorded spec in the table, edits that
// re-solve in the background to torch's violations and suggested fixes,
// Apply fixes back to ok, undo / redo, the Python text with its parse
// errors, guards with provenance that select their node, solved ranges and
// shapes; and a screenshot of the violation.
#include <QtTest>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QToolButton>

#include <memory>

#include "support/fixtures.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_model.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/shapes/dim_spec_editor.h"
#include "ui/shapes/dynamic_shapes_model.h"
#include "ui/shapes/dynamic_shapes_panel.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/spec_solver.h"
#include "ui/shapes/spec_text_editor.h"
#include "ui/shapes/violations_model.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/main_window.h"
#include "support/screenshot.h"

using namespace exportlens;
using exportlens::testing::fixtures_dir;
using exportlens::testing::read_json;
using symbolic::DimSpec;
using ui::MainWindow;
using ui::SpecSession;

namespace {

QString check_case(const QString& name) { return fixtures_dir() + "/check_cases/" + name; }

QString cell(QAbstractItemModel* model, int row, int column) { return model->index(row, column).data().toString(); }

ui::DimEdit named(const std::string& name) {
  DimSpec d;
  d.kind = DimSpec::Kind::Named;
  d.dim = name;
  return {d, symbolic::DimDecl{name, {}, {}}};
}

}  // namespace

class TestDynamicShapes : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;
  QJsonObject foo_;  // torch's outcome for Foo with x: (dx, d1), y: (dy, d1)

  SpecSession* session() const { return window_->specSession(); }
  ui::DynamicShapesModel* table_model() const { return window_->dynamicShapesPanel()->model(); }

  // Waits until the background solve settles on `state`.
  bool wait_for(SpecSession::State state) {
    return QTest::qWaitFor([&] { return !session()->solver()->isBusy() && session()->state() == state; }, 30000);
  }

  int row_of(const QString& input) const {
    for (int r = 0; r < table_model()->rowCount(); ++r)
      if (cell(table_model(), r, ui::DynamicShapesModel::Input) == input) return r;
    return -1;
  }

  void set_dim(const QString& input, int dim, const ui::DimEdit& edit) {
    const QModelIndex index = table_model()->dimIndex(row_of(input), dim);
    QVERIFY(table_model()->setData(index, QVariant::fromValue(edit)));
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensShapesTest"));
    const QString program = check_case(QStringLiteral("programs/foo.pt2"));
    if (!QFile::exists(program)) QFAIL(qPrintable("check-case fixture missing: " + program));
    foo_ = read_json(check_case(QStringLiteral("foo_dx_dy_d1/meta.json")));
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(program);
    QVERIFY(shown.wait(60000));
    QVERIFY(wait_for(SpecSession::State::Ok));
  }

  void the_recorded_spec_is_in_the_table() {
    QCOMPARE(table_model()->rowCount(), 2);
    QVERIFY(row_of(QStringLiteral("x")) >= 0 && row_of(QStringLiteral("y")) >= 0);
    const int x = row_of(QStringLiteral("x"));
    QCOMPARE(cell(table_model(), x, ui::DynamicShapesModel::Example), QStringLiteral("[6, 4]"));
    QCOMPARE(cell(table_model(), x, ui::DynamicShapesModel::FirstDim), QStringLiteral("AUTO"));
    QVERIFY(!cell(table_model(), x, table_model()->solvedColumn()).isEmpty());
    QCOMPARE(window_->shapesStatusText(), QStringLiteral("ok"));
    // The text tab prints the same spec.
    const QString text = window_->dynamicShapesPanel()->textEditor()->editor()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("\"x\": (Dim.AUTO")), qPrintable(text));
    // No edit yet: the range constraints are the file's.
    QVERIFY(!session()->document()->isEdited());
    QCOMPARE(window_->rangeTable()->model()->rowCount(),
             int(window_->programModel()->program()->range_constraints.entries.size()));
  }

  void guards_have_provenance_and_select_their_node() {
    QTableView* guards = window_->guardsTable();
    QVERIFY(guards->model()->rowCount() > 0);
    int row = -1;
    for (int r = 0; r < guards->model()->rowCount() && row < 0; ++r)
      if (!cell(guards->model(), r, 2).isEmpty()) row = r;  // one with a node
    QVERIFY(row >= 0);
    const QString node = cell(guards->model(), row, 2);
    QVERIFY(!cell(guards->model(), row, 0).isEmpty());  // the guard itself
    QVERIFY(!cell(guards->model(), row, 1).isEmpty());  // where it came from
    guards->setCurrentIndex(guards->model()->index(row, 0));
    QCOMPARE(window_->programModel()->selectedName(), node);
    QVERIFY(window_->graphScene()->nodeItem(node)->isSelected());
    QVERIFY(window_->inspector()->plainText().contains(QStringLiteral("Guards it emitted")));
    window_->findChild<QDockWidget*>(QStringLiteral("guardsDock"))->raise();
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("guards.png"));
  }

  void editing_dims_solves_to_torchs_violations() {
    // Foo's spec from the seed: x: (dx, d1), y: (dy, d1) — one cell through the editor, the rest through the model.
    QAbstractItemView* table = window_->dynamicShapesPanel()->table();
    window_->findChild<QDockWidget*>(QStringLiteral("dynamicShapesDock"))->raise();
    const QModelIndex x0 = table_model()->dimIndex(row_of(QStringLiteral("x")), 0);
    table->setCurrentIndex(x0);
    table->edit(x0);
    auto* editor = table->findChild<ui::DimSpecEditor*>(QStringLiteral("dimSpecEditor"));
    QVERIFY(editor);
    editor->setChoice(ui::DimSpecEditor::Named);
    editor->nameBox()->setEditText(QStringLiteral("dx"));
    editor->minBox()->setValue(2);
    QTest::qWait(20);
    testing::save_screenshot(window_->dynamicShapesPanel(), QStringLiteral("dynamic_shapes_editor.png"));
    editor->minBox()->setValue(-1);  // unbounded, as in torch's case
    QTest::keyClick(editor->kindBox(), Qt::Key_Return);  // the view commits and closes the editor
    QTRY_COMPARE(cell(table_model(), row_of(QStringLiteral("x")), ui::DynamicShapesModel::FirstDim), QStringLiteral("dx"));
    QVERIFY(!table->findChild<ui::DimSpecEditor*>(QStringLiteral("dimSpecEditor")));
    QCOMPARE(window_->shapesStatusText(), QStringLiteral("solving…"));
    set_dim(QStringLiteral("x"), 1, named("d1"));
    set_dim(QStringLiteral("y"), 0, named("dy"));
    set_dim(QStringLiteral("y"), 1, named("d1"));
    QVERIFY(wait_for(SpecSession::State::Violation));

    const QJsonArray expected = foo_["violations"].toArray();
    ui::ViolationsPanel* panel = window_->violationsPanel();
    QCOMPARE(panel->model()->rowCount(), expected.size());
    for (int r = 0; r < expected.size(); ++r)
      QCOMPARE(cell(panel->model(), r, ui::ViolationsModel::Problem), expected[r].toString());
    QCOMPARE(window_->shapesStatusText(), QStringLiteral("%1 violations").arg(expected.size()));
    QVERIFY(window_->findChild<QLabel*>(QStringLiteral("shapesStatus"))->text().endsWith(window_->shapesStatusText()));
    QStringList fixes;
    for (const auto& f : foo_["suggested_fixes"].toArray()) fixes << f.toString();
    QCOMPARE(panel->fixesText()->toPlainText(), fixes.join('\n'));
    QVERIFY(panel->applyButton()->isEnabled());
    QVERIFY(panel->verdictText().startsWith(QStringLiteral("Constraints violated (d1, dy)!")));
    // A violated cell is tinted.
    QVERIFY(table_model()->dimIndex(row_of(QStringLiteral("y")), 0).data(Qt::BackgroundRole).isValid());
  }

  void a_violation_names_its_node_and_source() {
    ui::ViolationsModel* model = window_->violationsPanel()->model();
    int row = -1;
    for (int r = 0; r < model->rowCount() && row < 0; ++r)
      if (!model->nodeAt(r).isEmpty()) row = r;
    QVERIFY2(row >= 0, "no violation names a node");
    QVERIFY(!cell(model, row, ui::ViolationsModel::Source).isEmpty());
    window_->violationsPanel()->table()->setCurrentIndex(model->index(row, 0));
    QCOMPARE(window_->programModel()->selectedName(), model->nodeAt(row));
  }

  void screenshot_of_the_violation() {
    window_->findChild<QDockWidget*>(QStringLiteral("violationsDock"))->raise();
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("dynamic_shapes_violation.png"));
    window_->findChild<QDockWidget*>(QStringLiteral("dynamicShapesDock"))->raise();
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("dynamic_shapes_table.png"));
  }

  void apply_fixes_solves_ok() {
    QTest::mouseClick(window_->violationsPanel()->applyButton(), Qt::LeftButton);
    QVERIFY(wait_for(SpecSession::State::Ok));
    QCOMPARE(window_->shapesStatusText(), QStringLiteral("ok"));
    QCOMPARE(window_->violationsPanel()->model()->rowCount(), 0);
    // torch's refined spec: d1 = 4, dy = dx.
    const int y = row_of(QStringLiteral("y"));
    QCOMPARE(cell(table_model(), y, ui::DynamicShapesModel::FirstDim), QStringLiteral("dx"));
    QCOMPARE(cell(table_model(), y, ui::DynamicShapesModel::FirstDim + 1), QStringLiteral("4"));
    // The edited spec's ranges and shapes are shown.
    QVERIFY(session()->document()->isEdited());
    QVERIFY(window_->rangeTable()->model()->rowCount() > 0);
    QVERIFY(window_->findChild<QDockWidget*>(QStringLiteral("rangeConstraintsDock"))->windowTitle().contains("solved"));
    const QString solved_x = cell(table_model(), row_of(QStringLiteral("x")), table_model()->solvedColumn());
    QVERIFY2(solved_x.endsWith(QStringLiteral(", 4]")), qPrintable(solved_x));
    window_->programModel()->selectNode(QStringLiteral("x"));
    const QString inspector = window_->inspector()->plainText();
    QVERIFY2(inspector.contains(QStringLiteral("Solved shape")) && inspector.contains(QStringLiteral(", 4]")),
             qPrintable(inspector));
    QTableView* signature = window_->signatureTable();
    QCOMPARE(signature->model()->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Shape (solved)"));
  }

  void undo_and_redo_spec_edits() {
    // Window shortcuts need the window active (with a real X server too).
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    window_->graphView()->setFocus();
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(wait_for(SpecSession::State::Violation));
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(wait_for(SpecSession::State::Ok));
  }

  void a_parse_error_shows_its_position_and_keeps_the_spec() {
    ui::SpecTextEditor* text = window_->dynamicShapesPanel()->textEditor();
    const auto before = session()->document()->spec();
    text->editor()->setPlainText(QStringLiteral("dynamic_shapes = {\"x\": (dz, None)}"));
    text->parseNow();
    QVERIFY2(text->errorText().contains(QStringLiteral("line 1, column 25")), qPrintable(text->errorText()));
    QVERIFY(text->errorText().contains(QStringLiteral("dz")));
    QVERIFY(!text->editor()->extraSelections().isEmpty());  // the position is underlined
    QCOMPARE(session()->document()->spec(), before);
  }

  void typing_a_spec_resolves() {
    ui::SpecTextEditor* text = window_->dynamicShapesPanel()->textEditor();
    text->editor()->setPlainText(
        QStringLiteral("dynamic_shapes = {\"x\": (Dim.AUTO, Dim.DYNAMIC), \"y\": (Dim.AUTO, Dim.AUTO)}"));
    // Parsed after the typing pause, then solved.
    QVERIFY(QTest::qWaitFor([&] { return session()->document()->spec().inputs.size() == 2 &&
                                         session()->document()->spec().dims.empty(); }, 5000));
    QVERIFY(text->errorText().isEmpty());
    QVERIFY(wait_for(SpecSession::State::Violation));
    // Dim.DYNAMIC on x.shape[1], which ones(4) makes 4.
    const QString verdict = window_->violationsPanel()->verdictText();
    QVERIFY2(verdict.contains(QStringLiteral("L['x'].size()[1]")) || verdict.contains(QStringLiteral("x.shape[1]")),
             qPrintable(verdict));
    // The table follows the text.
    QCOMPARE(cell(table_model(), row_of(QStringLiteral("x")), ui::DynamicShapesModel::FirstDim + 1),
             QStringLiteral("DYNAMIC"));
  }

  void stale_results_are_dropped() {
    ui::SpecSolver* solver = session()->solver();
    QSignalSpy solved(solver, &ui::SpecSolver::solved);
    auto violating = session()->document()->spec();
    auto fine = violating;
    fine.inputs[0].second.dims[1].second.kind = DimSpec::Kind::Auto;
    solver->request(violating, true);  // starts at once
    solver->request(fine, true);       // waits for it, then makes it stale
    QVERIFY(QTest::qWaitFor([&] { return !solver->isBusy(); }, 30000));
    QTest::qWait(50);
    QCOMPARE(solved.size(), 1);
    QCOMPARE(solved.first().at(0).value<ui::SolveResultPtr>()->status, ops::SolveStatus::Ok);
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestDynamicShapes)
#include "test_dynamic_shapes.moc"

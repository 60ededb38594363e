// The Dynamic shapes dock on a program whose arguments are a tuple and a dict
// holding a list (the check case nested_dict: forward(x, ys) with x = (x0, x1),
// ys = {"a": a, "b": [b0]}): the spec editor shows the arguments as a tree
// with one row per tensor under its container, named by torch's pytree
// paths; a nested spec typed as text solves to torch's violation; Apply
// fixes gives torch's refined spec; a cell edit goes back into the nested
// spec text, which reads back to the same spec; and a screenshot of the tree.
#include <QtTest>

#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTreeView>
#include <QUndoStack>

#include <memory>

#include "support/fixtures.h"
#include "support/screenshot.h"
#include "ui/shapes/dynamic_shapes_model.h"
#include "ui/shapes/dynamic_shapes_panel.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/spec_solver.h"
#include "ui/shapes/spec_text_editor.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/main_window.h"

using namespace exportlens;
using exportlens::testing::fixtures_dir;
using exportlens::testing::read_json;
using symbolic::DimSpec;
using ui::DynamicShapesModel;
using ui::MainWindow;
using ui::SpecSession;

namespace {

QString check_case(const QString& name) { return fixtures_dir() + "/check_cases/" + name; }
QJsonObject case_meta(const QString& name) { return read_json(check_case(name + "/meta.json")); }

}  // namespace

class TestNestedShapes : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  SpecSession* session() const { return window_->specSession(); }
  DynamicShapesModel* model() const { return window_->dynamicShapesPanel()->model(); }

  bool wait_for(SpecSession::State state) {
    return QTest::qWaitFor([&] { return !session()->solver()->isBusy() && session()->state() == state; }, 30000);
  }

  // Every row's Input text with its depth, depth first, as the tree shows them.
  void collect(const QModelIndex& parent, int depth, QStringList& out) const {
    for (int r = 0; r < model()->rowCount(parent); ++r) {
      const QModelIndex i = model()->index(r, DynamicShapesModel::Input, parent);
      out << QString(depth * 2, QLatin1Char(' ')) + i.data().toString();
      collect(i, depth + 1, out);
    }
  }

  // The row of the input labelled `path` ("ys['b'][0]").
  QModelIndex row_of(const QString& path, const QModelIndex& parent = {}) const {
    for (int r = 0; r < model()->rowCount(parent); ++r) {
      const QModelIndex i = model()->index(r, DynamicShapesModel::Input, parent);
      if (i.data().toString() == path) return i;
      if (const QModelIndex found = row_of(path, i); found.isValid()) return found;
    }
    return {};
  }

  QString dim_cell(const QString& path, int dim) const {
    const QModelIndex row = row_of(path);
    return row.siblingAtColumn(DynamicShapesModel::FirstDim + dim).data().toString();
  }

  void type_spec(const QString& text) {
    ui::SpecTextEditor* editor = window_->dynamicShapesPanel()->textEditor();
    editor->editor()->setPlainText(text);
    editor->parseNow();
    QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensNestedShapesTest"));
    const QString program = check_case(QStringLiteral("programs/nested_dict.pt2"));
    if (!QFile::exists(program)) QFAIL(qPrintable("check-case fixture missing: " + program));
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(program);
    QVERIFY(shown.wait(60000));
    QVERIFY(wait_for(SpecSession::State::Ok));
  }

  // One row per argument, its parts below it; the leaves are the inputs torch
  // names (its input shapes' keys), each with its example shape.
  void the_arguments_are_a_tree() {
    QStringList rows;
    collect({}, 0, rows);
    QCOMPARE(rows, QStringList({"x", "  x[0]", "  x[1]", "ys", "  ys['a']", "  ys['b']", "    ys['b'][0]"}));
    const QJsonObject shapes = case_meta(QStringLiteral("nested_dict_shared"))["input_shapes"].toObject();
    QStringList leaves;
    for (int i = 0; i < int(session()->document()->inputs().size()); ++i) {
      const QModelIndex row = model()->inputIndex(i);
      QVERIFY(row.isValid());
      QCOMPARE(model()->inputAt(row), i);
      leaves << row.data().toString();
      QCOMPARE(model()->rowCount(row), 0);
    }
    QStringList theirs = shapes.keys();
    leaves.sort();
    theirs.sort();
    QCOMPARE(leaves, theirs);
    // The example sizes are the file's (torch's example inputs), dims editable only on leaves.
    QCOMPARE(row_of("ys['b'][0]").siblingAtColumn(DynamicShapesModel::Example).data().toString(), QStringLiteral("[5, 3]"));
    QVERIFY(model()->flags(row_of("x[1]").siblingAtColumn(DynamicShapesModel::FirstDim)) & Qt::ItemIsEditable);
    QVERIFY(!(model()->flags(row_of("ys").siblingAtColumn(DynamicShapesModel::FirstDim)) & Qt::ItemIsEditable));
    QVERIFY(window_->dynamicShapesPanel()->table()->rootIsDecorated());
    // The recorded spec is nested as the arguments are.
    const QString text = window_->dynamicShapesPanel()->textEditor()->editor()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("\"x\": ((Dim.AUTO, Dim.AUTO), (Dim.AUTO, Dim.AUTO))")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\"ys\": {\"a\": (Dim.AUTO, Dim.AUTO), \"b\": [(Dim.AUTO, Dim.AUTO)]}")),
             qPrintable(text));
  }

  // torch's case nested_dict_fresh typed in: its violation, message for
  // message; the tree shows the nested entries; Apply fixes gives torch's
  // refined spec (nested_dict_fresh_refined), which solves.
  void a_nested_spec_solves_like_torch() {
    const QJsonObject fresh = case_meta(QStringLiteral("nested_dict_fresh"));
    type_spec(fresh["spec"].toString());
    QVERIFY(wait_for(SpecSession::State::Violation));
    QCOMPARE(QString::fromStdString(session()->result()->message).trimmed(), fresh["message"].toString().trimmed());
    QCOMPARE(dim_cell("x[1]", 0), QStringLiteral("dx"));
    QCOMPARE(dim_cell("ys['a']", 0), QStringLiteral("p"));
    QCOMPARE(dim_cell("ys['b'][0]", 0), QStringLiteral("q"));
    QVERIFY(row_of("ys['b'][0]").siblingAtColumn(DynamicShapesModel::FirstDim).data(Qt::BackgroundRole).isValid());
    window_->findChild<QDockWidget*>(QStringLiteral("dynamicShapesDock"))->raise();
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("dynamic_shapes_nested.png"));

    QTest::mouseClick(window_->violationsPanel()->applyButton(), Qt::LeftButton);
    QVERIFY(wait_for(SpecSession::State::Ok));
    const auto theirs = symbolic::parse_dynamic_shapes(
        case_meta(QStringLiteral("nested_dict_fresh_refined"))["spec"].toString().toStdString());
    for (const auto& in : session()->document()->inputs())
      for (size_t d = 0; d < in.sizes.size(); ++d) {
        const int i = int(&in - session()->document()->inputs().data());
        const DimSpec mine = ui::dim_entry(session()->document()->spec(), session()->document()->inputs(), size_t(i),
                                           int64_t(d), session()->document()->inputTree());
        const DimSpec torch = ui::dim_entry(theirs, session()->document()->inputs(), size_t(i), int64_t(d),
                                            session()->document()->inputTree());
        QVERIFY2(mine.kind == torch.kind && mine.value == torch.value && mine.dim == torch.dim,
                 qPrintable(QString::fromStdString(in.display_name()) + " dim " + QString::number(d)));
      }
  }

  // A cell edit on a leaf goes into the nested spec: the text shows it where
  // the leaf is, reads back to the same spec, and the tree shows the text's.
  void a_cell_edit_round_trips_through_the_nested_text() {
    DimSpec auto_dim;
    auto_dim.kind = DimSpec::Kind::Auto;
    const QModelIndex cell = row_of("ys['b'][0]").siblingAtColumn(DynamicShapesModel::FirstDim + 1);
    QVERIFY(model()->setData(cell, QVariant::fromValue(ui::DimEdit{auto_dim, {}})));
    QCOMPARE(cell.data().toString(), QStringLiteral("AUTO"));
    const auto& spec = session()->document()->spec();
    const std::string text = symbolic::print_dynamic_shapes(spec);
    QVERIFY2(QString::fromStdString(text).contains(QStringLiteral("\"b\": [(5, Dim.AUTO)]")), text.c_str());
    QCOMPARE(symbolic::parse_dynamic_shapes(text), spec);
    QVERIFY(wait_for(SpecSession::State::Ok));
    // Undo gives the refined spec back, and the tree follows.
    session()->document()->undoStack()->undo();
    QTRY_COMPARE(cell.data().toString(), QStringLiteral("STATIC"));
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestNestedShapes)
#include "test_nested_shapes.moc"

// The GUI's logic without a window: node categories, find, argument text,
// recent files, the signature and range-constraint table models.
#include <QtTest>

#include <QSettings>
#include <QStandardPaths>

#include <memory>

#include "engine/layout/node_label.h"
#include "support/program_builder.h"
#include "ui/canvas/canvas_palette.h"
#include "ui/canvas/node_category.h"
#include "ui/core/node_metrics.h"
#include "ui/program_views/argument_text.h"
#include "ui/program_views/node_finder.h"
#include "ui/program_views/range_constraints_model.h"
#include "ui/program_views/signature_table_model.h"
#include "ui/shell/recent_files.h"

using namespace exportlens;

namespace {

// x (user input), p_fc_weight (parameter), b_running_mean (buffer) -> linear,
// relu, conv, custom op, sum, view; output.
ui::LoadedProgramPtr tiny_program() {
  auto program = std::make_shared<ir::ExportedProgram>();
  testing::GraphMaker g{program->graph()};
  auto* x = g.placeholder("x");
  auto* w = g.placeholder("p_fc_weight");
  auto* m = g.placeholder("b_running_mean");
  auto* lin = g.call("linear", "torch.ops.aten.linear.default", {x, w});
  auto* relu = g.call("relu", "torch.ops.aten.relu.default", {lin});
  auto* conv = g.call("conv2d", "torch.ops.aten.conv2d.default", {relu, m});
  auto* custom = g.call("custom", "torch.ops.mylib.custom_op.default", {conv});
  auto* sum = g.call("sum_1", "torch.ops.aten.sum.dim_IntList", {custom});
  auto* view = g.call("view", "torch.ops.aten.view.default", {sum});
  g.output({view});
  auto& sig = program->signature;
  sig.inputs.push_back({ir::InputKind::UserInput, {ir::SpecArgument::Type::Tensor, "x", {}}, {}, {}});
  sig.inputs.push_back({ir::InputKind::Parameter, {ir::SpecArgument::Type::Tensor, "p_fc_weight", {}}, "fc.weight", {}});
  sig.inputs.push_back({ir::InputKind::Buffer, {ir::SpecArgument::Type::Tensor, "b_running_mean", {}}, "running_mean", true});
  sig.outputs.push_back({ir::OutputKind::UserOutput, {ir::SpecArgument::Type::Tensor, "view", {}}, {}});
  program->range_constraints.entries.push_back(
      {ir::Expr::symbol("s0"), ir::ValueRange{ir::Expr(2), ir::Expr::infinity()}});
  auto loaded = std::make_shared<ui::LoadedProgram>();
  loaded->program = program;
  return loaded;
}

ui::NodeCategory category_of(const ui::LoadedProgramPtr& p, const char* name) {
  return ui::categorize(*p->graph().find(name), p->program->signature);
}

}  // namespace

class TestUiModels : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensModelsTest"));
  }

  void categories_follow_signature_and_op_family() {
    auto p = tiny_program();
    QCOMPARE(category_of(p, "x"), ui::NodeCategory::UserInput);
    QCOMPARE(category_of(p, "p_fc_weight"), ui::NodeCategory::Parameter);
    QCOMPARE(category_of(p, "b_running_mean"), ui::NodeCategory::Buffer);
    QCOMPARE(category_of(p, "linear"), ui::NodeCategory::LinearAlgebra);
    QCOMPARE(category_of(p, "relu"), ui::NodeCategory::Activation);
    QCOMPARE(category_of(p, "conv2d"), ui::NodeCategory::Convolution);
    QCOMPARE(category_of(p, "custom"), ui::NodeCategory::Custom);
    QCOMPARE(category_of(p, "sum_1"), ui::NodeCategory::Reduction);
    QCOMPARE(category_of(p, "view"), ui::NodeCategory::ShapeView);
    QCOMPARE(category_of(p, "output"), ui::NodeCategory::Output);
  }

  void every_category_has_its_own_colour() {
    for (bool dark : {false, true}) {
      QPalette system;
      system.setColor(QPalette::Base, dark ? QColor(30, 30, 30) : QColor(255, 255, 255));
      ui::CanvasPalette palette(system);
      QCOMPARE(palette.dark(), dark);
      QSet<QRgb> fills;
      for (int i = 0; i < ui::kNodeCategoryCount; ++i) {
        const auto colors = palette.node(static_cast<ui::NodeCategory>(i));
        fills.insert(colors.fill.rgb());
        // Text stays readable on its fill.
        QVERIFY(std::abs(colors.text.lightness() - colors.fill.lightness()) > 100);
      }
      QCOMPARE(fills.size(), ui::kNodeCategoryCount);
    }
  }

  void finder_matches_name_op_and_target() {
    ui::NodeFinder finder;
    finder.setProgram(tiny_program());
    QCOMPARE(finder.search(QStringLiteral("LIN")), 1);
    QCOMPARE(finder.next(), QStringLiteral("linear"));
    QCOMPARE(finder.search(QStringLiteral("mylib")), 1);
    // "_": p_fc_weight, b_running_mean, custom (custom_op), sum_1 (and dim_IntList).
    QCOMPARE(finder.search(QStringLiteral("_")), 4);
    QCOMPARE(finder.next(), QStringLiteral("p_fc_weight"));
    QCOMPARE(finder.previous(), QStringLiteral("sum_1"));  // wraps
    QCOMPARE(finder.next(), QStringLiteral("p_fc_weight"));
    QCOMPARE(finder.search(QString()), 0);
    QCOMPARE(finder.next(), QString());
  }

  void arguments_print_like_python() {
    QCOMPARE(ui::python_float(1.0), QStringLiteral("1.0"));
    QCOMPARE(ui::python_float(0.5), QStringLiteral("0.5"));
    QCOMPARE(ui::python_float(1e-05), QStringLiteral("1e-05"));
    QCOMPARE(ui::argument_html(ir::Argument(ir::None{})), QStringLiteral("None"));
    QCOMPARE(ui::argument_html(ir::Argument(ir::ScalarType::Float)), QStringLiteral("torch.float32"));
    auto p = tiny_program();
    ir::ArgumentList list{{ir::Argument(p->graph().find("x")), ir::Argument(int64_t{-1})}, false};
    QCOMPARE(ui::argument_html(ir::Argument(list)), QStringLiteral("[<a href=\"node:x\">x</a>, -1]"));
  }

  void recent_files_keep_ten_newest_first() {
    ui::RecentFiles recent;
    recent.clear();
    for (int i = 0; i < 12; ++i) recent.add(QStringLiteral("/tmp/model_%1.pt2").arg(i));
    recent.add(QStringLiteral("/tmp/model_5.pt2"));
    const QStringList files = recent.files();
    QCOMPARE(files.size(), ui::RecentFiles::kMaximum);
    QCOMPARE(files.first(), QStringLiteral("/tmp/model_5.pt2"));
    QCOMPARE(files.count(QStringLiteral("/tmp/model_5.pt2")), 1);
    QVERIFY(!files.contains(QStringLiteral("/tmp/model_0.pt2")));
    recent.clear();
    QVERIFY(recent.files().isEmpty());
  }

  void signature_model_lists_inputs_then_outputs() {
    ui::SignatureTableModel model;
    model.setProgram(tiny_program());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 5);
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("PARAMETER"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("fc.weight"));
    QCOMPARE(model.index(2, 3).data().toString(), QStringLiteral("yes"));
    QCOMPARE(model.index(3, 0).data().toString(), QStringLiteral("USER_OUTPUT"));
    QCOMPARE(model.headerData(3, Qt::Vertical).toString(), QStringLiteral("out 0"));
    QCOMPARE(model.nodeAt(3), QStringLiteral("view"));
    QCOMPARE(model.rowOf(QStringLiteral("b_running_mean")), 2);
    QCOMPARE(model.rowOf(QStringLiteral("relu")), -1);
    // Shape: the file's until a solve gives one.
    QCOMPARE(model.headerData(ui::SignatureTableModel::Shape, Qt::Horizontal).toString(), QStringLiteral("Shape"));
    ui::NodeSolveFactsMap facts;
    facts[QStringLiteral("x")].value = QStringLiteral("f32[s0, 4]");
    model.setSolved(facts);
    QCOMPARE(model.index(0, ui::SignatureTableModel::Shape).data().toString(), QStringLiteral("f32[s0, 4]"));
    QCOMPARE(model.headerData(ui::SignatureTableModel::Shape, Qt::Horizontal).toString(), QStringLiteral("Shape (solved)"));
    model.setProgram(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void range_model_lists_symbols() {
    ui::RangeConstraintsModel model;
    model.setProgram(tiny_program());
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("s0"));
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("2"));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("int_oo"));
  }

  void boxes_grow_with_their_text() {
    ui::NodeMetrics metrics(QFont(QStringLiteral("DejaVu Sans"), 9));
    auto small = metrics.boxSize({"add", "f32[3]"});
    auto wide = metrics.boxSize({"add", "f32[s17*s77, 1024, 1024, 3]"});
    auto one_line = metrics.boxSize({"output", ""});
    QVERIFY(wide.width > small.width);
    QCOMPARE(wide.height, small.height);
    QVERIFY(one_line.height < small.height);
    QVERIFY(small.width >= ui::NodeMetrics::kMinWidth);
  }
};

QTEST_MAIN(TestUiModels)
#include "test_ui_models.moc"

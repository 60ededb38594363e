// The dynamic-shapes and run logic without a window: spec edits from the
// table, cell texts, the cell editor, undo of spec edits, the GPU-vs-CPU
// comparison bound and the canvas heat.
#include <QtTest>

#include <QComboBox>
#include <QSpinBox>
#include <QUndoStack>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "ui/run/node_times_model.h"
#include "ui/shapes/dim_spec_editor.h"
#include "ui/shapes/dim_spec_text.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_edits.h"

using namespace exportlens;
using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;

namespace {

// Foo(x, y): x [6, 4], y [6, 4].
std::vector<symbolic::ExampleInput> foo_inputs() { return {{"x", true, {6, 4}}, {"y", true, {6, 4}}}; }

DimSpec kind(DimSpec::Kind k) {
  DimSpec d;
  d.kind = k;
  return d;
}

ui::DimEdit named(const std::string& name, std::optional<int64_t> min = {}, std::optional<int64_t> max = {}) {
  DimSpec d = kind(DimSpec::Kind::Named);
  d.dim = name;
  return {d, symbolic::DimDecl{name, min, max}};
}

QString printed(const DynamicShapesSpec& spec) { return QString::fromStdString(symbolic::print_dynamic_shapes(spec)); }

}  // namespace

class TestSpecModels : public QObject {
  Q_OBJECT

 private slots:
  void setting_a_dim_on_an_unset_spec_makes_a_dict() {
    const auto spec = ui::with_dim({}, foo_inputs(), 1, 0, named("dy", 2, 64));
    QCOMPARE(spec.form, DynamicShapesSpec::Form::Dict);
    QCOMPARE(printed(spec), QStringLiteral("dy = Dim(\"dy\", min=2, max=64)\n"
                                           "dynamic_shapes = {\n    \"x\": None,\n    \"y\": (dy, Dim.STATIC),\n}\n"));
    // It reads back to the same spec.
    QCOMPARE(symbolic::parse_dynamic_shapes(printed(spec).toStdString()), spec);
  }

  // forward(x, ys) with x = (x0, x1) and ys = {"a": a, "b": [b0]}: an edit
  // of a leaf builds the containers on its path, mirroring the argument; the
  // text reads back to the same spec, and dim_entry finds the leaf's entry
  // as torch matches the spec (also when the text spells a tuple of Nones).
  void an_edit_of_a_nested_input_builds_its_containers() {
    using symbolic::InputTree;
    const std::vector<symbolic::ExampleInput> inputs = {
        {"x", true, {4, 3}, "[0]"}, {"x", true, {4, 3}, "[1]"}, {"ys", true, {4, 5}, "['a']"}, {"ys", true, {5, 3}, "['b'][0]"}};
    auto leaf = [](int i) {
      InputTree t;
      t.leaf = i;
      return t;
    };
    InputTree x{InputTree::Kind::Tuple, "x", {}, "", {leaf(0), leaf(1)}};
    InputTree b{InputTree::Kind::List, "", {}, "", {leaf(3)}};
    InputTree ys{InputTree::Kind::Dict, "ys", {"a", "b"}, "", {leaf(2), b}};
    const std::vector<InputTree> tree = {x, ys};
    auto spec = ui::with_dim({}, inputs, 3, 0, named("dy"), tree);
    QCOMPARE(printed(spec), QStringLiteral("dy = Dim(\"dy\")\n"
                                           "dynamic_shapes = {\n    \"x\": (None, None),\n    \"ys\": {\"a\": None, \"b\": [(dy, Dim.STATIC)]},\n}\n"));
    spec = ui::with_dim(spec, inputs, 1, 0, named("dx"), tree);
    spec = ui::with_dim(spec, inputs, 2, 1, named("dy"), tree);
    QCOMPARE(printed(spec), QStringLiteral("dy = Dim(\"dy\")\ndx = Dim(\"dx\")\n"
                                           "dynamic_shapes = {\n    \"x\": (None, (dx, Dim.STATIC)),\n"
                                           "    \"ys\": {\"a\": (Dim.STATIC, dy), \"b\": [(dy, Dim.STATIC)]},\n}\n"));
    QCOMPARE(symbolic::parse_dynamic_shapes(printed(spec).toStdString()), spec);
    QCOMPARE(ui::dim_entry(spec, inputs, 1, 0, tree).dim, std::string("dx"));
    QCOMPARE(ui::dim_entry(spec, inputs, 3, 0, tree).dim, std::string("dy"));
    QVERIFY(ui::dim_entry(spec, inputs, 0, 0, tree).is_static());
    // (None, None) for x is a None per tensor; editing x[0] makes it a tuple of specs.
    auto nones = symbolic::parse_dynamic_shapes(R"(dynamic_shapes = {"x": (None, None), "ys": {"a": None, "b": [None]}})");
    QVERIFY(ui::dim_entry(nones, inputs, 0, 0, tree).is_static());
    nones = ui::with_dim(nones, inputs, 0, 1, {kind(DimSpec::Kind::Auto), {}}, tree);
    QVERIFY2(printed(nones).contains(QStringLiteral("\"x\": ((Dim.STATIC, Dim.AUTO), None)")), qPrintable(printed(nones)));
    // A spec that does not fit the inputs reads as static, and an edit replaces what is in the way.
    auto wrong = symbolic::parse_dynamic_shapes(R"(dynamic_shapes = {"x": [None, None], "ys": None})");
    QVERIFY(ui::dim_entry(wrong, inputs, 2, 0, tree).is_static());
    wrong = ui::with_dim(wrong, inputs, 2, 0, {kind(DimSpec::Kind::Auto), {}}, tree);
    QVERIFY2(printed(wrong).contains(QStringLiteral("\"ys\": {\"a\": (Dim.AUTO, Dim.STATIC), \"b\": [None]}")),
             qPrintable(printed(wrong)));
  }

  void shared_dims_and_pruning() {
    auto spec = ui::with_dim({}, foo_inputs(), 0, 0, named("dx"));
    spec = ui::with_dim(spec, foo_inputs(), 1, 0, named("dx", 4));
    QCOMPARE(spec.dims.at("dx").min, std::optional<int64_t>(4));  // re-bounding a Dim changes every use
    QCOMPARE(ui::dim_spec_text(ui::dim_entry(spec, foo_inputs(), 0, 0), spec), QStringLiteral("dx [4, ∞)"));
    spec = ui::with_dim(spec, foo_inputs(), 0, 0, {kind(DimSpec::Kind::Auto), {}});
    QVERIFY(spec.dims.count("dx"));  // y still uses it
    spec = ui::with_dim(spec, foo_inputs(), 1, 0, {kind(DimSpec::Kind::Static), {}});
    QVERIFY(spec.dims.empty());
    QVERIFY(spec.dim_order.empty());
  }

  void derived_dims_declare_their_root() {
    DimSpec derived = kind(DimSpec::Kind::Derived);
    derived.dim = "dx";
    derived.coeff = 2;
    derived.offset = 1;
    const auto spec = ui::with_dim({}, foo_inputs(), 1, 1, {derived, {}});
    QVERIFY(spec.dims.count("dx"));
    QCOMPARE(ui::dim_spec_text(ui::dim_entry(spec, foo_inputs(), 1, 1), spec), QStringLiteral("2*dx + 1"));
  }

  void dict_inputs_keep_argument_order() {
    DynamicShapesSpec spec;
    spec.form = DynamicShapesSpec::Form::Dict;
    spec.inputs.push_back({"y", {}});
    spec = ui::with_dim(spec, foo_inputs(), 0, 1, {kind(DimSpec::Kind::Dynamic), {}});
    QCOMPARE(spec.inputs.size(), size_t(2));
    QCOMPARE(spec.inputs[0].first, std::string("x"));
  }

  void cell_texts() {
    DynamicShapesSpec spec;
    QCOMPARE(ui::dim_spec_text(kind(DimSpec::Kind::Unspecified), spec), QStringLiteral("STATIC"));
    DimSpec dynamic = kind(DimSpec::Kind::Dynamic);
    dynamic.min = 2;
    dynamic.max = 64;
    QCOMPARE(ui::dim_spec_text(dynamic, spec), QStringLiteral("DYNAMIC [2, 64]"));
    DimSpec four = kind(DimSpec::Kind::Int);
    four.value = 4;
    QCOMPARE(ui::dim_spec_text(four, spec), QStringLiteral("4"));
  }

  void editor_round_trip() {
    ui::DimSpecEditor editor;
    editor.setKnownDims({{"dx", symbolic::DimDecl{"dx", 4, 256}}});
    editor.setValue(named("dx", 4, 256));
    QCOMPARE(editor.choice(), ui::DimSpecEditor::Named);
    ui::DimEdit out = editor.value();
    QCOMPARE(out.spec.dim, std::string("dx"));
    QCOMPARE(out.decl->max, std::optional<int64_t>(256));
    // Unbounded max, a derived dim, an unnamed Dim.
    editor.maxBox()->setValue(-1);
    QVERIFY(!editor.value().decl->max);
    editor.setChoice(ui::DimSpecEditor::Derived);
    editor.coeffBox()->setValue(3);
    editor.offsetBox()->setValue(-1);
    out = editor.value();
    QCOMPARE(out.spec.kind, DimSpec::Kind::Derived);
    QCOMPARE(out.spec.coeff, int64_t(3));
    QCOMPARE(out.spec.offset, int64_t(-1));
    editor.setChoice(ui::DimSpecEditor::Named);
    editor.nameBox()->setEditText(QStringLiteral("2dx"));
    QVERIFY(editor.problem().contains(QStringLiteral("not a Python name")));
    editor.setChoice(ui::DimSpecEditor::Auto);
    QVERIFY(editor.problem().isEmpty());
    QVERIFY(editor.nameBox()->isHidden());
  }

  void document_undo_redo() {
    ui::SpecDocument document;
    document.reset(foo_inputs(), {});
    QVERIFY(!document.isEdited());
    QSignalSpy changed(&document, &ui::SpecDocument::specChanged);
    document.setDim(0, 1, named("d1"));
    QVERIFY(document.isEdited());
    QCOMPARE(changed.last().at(0).value<ui::SpecDocument::Origin>(), ui::SpecDocument::Origin::Table);
    document.setDim(1, 1, named("d1"));
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    QCOMPARE(changed.last().at(0).value<ui::SpecDocument::Origin>(), ui::SpecDocument::Origin::History);
    document.undoStack()->undo();
    QVERIFY(!document.isEdited());
    QCOMPARE(document.spec(), DynamicShapesSpec());
    document.undoStack()->redo();
    QVERIFY(document.spec().dims.count("d1"));
    // Typing merges into one step; an unchanged spec is no step.
    document.setSpec(symbolic::parse_dynamic_shapes("dynamic_shapes = {\"x\": (Dim.AUTO, None), \"y\": None}"),
                     "text", ui::SpecDocument::Origin::Text);
    document.setSpec(symbolic::parse_dynamic_shapes("dynamic_shapes = {\"x\": (Dim.AUTO, 4), \"y\": None}"), "text",
                     ui::SpecDocument::Origin::Text);
    QCOMPARE(document.undoStack()->count(), 2);
    document.setSpec(document.spec(), "same", ui::SpecDocument::Origin::Fixes);
    QCOMPARE(document.undoStack()->count(), 2);
  }

  void heat_is_relative_to_the_slowest() {
    ui::RunOutcome outcome;
    outcome.report = runtime::RunReport{};
    outcome.report->node_times = {{"a", 1.0}, {"b", 4.0}, {"c", 2.0}};
    ui::NodeTimesModel model;
    model.setOutcome(nullptr, outcome);
    QCOMPARE(model.rowCount(), 3);
    const auto heat = ui::heat_fractions(model.times());
    QCOMPARE(heat.value(QStringLiteral("b")), 1.0);
    QCOMPARE(heat.value(QStringLiteral("a")), 0.25);
    QCOMPARE(heat.value(QStringLiteral("c")), 0.5);
    QCOMPARE(model.timeText(QStringLiteral("c")), QStringLiteral("2.000 ms"));
  }
};

QTEST_MAIN(TestSpecModels)
#include "test_spec_models.moc"

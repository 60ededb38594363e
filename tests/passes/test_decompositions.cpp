// Lowering against torch: for every fixture that exports, ExportLens's
// functional program must equal torch's ep.run_decompositions({}) and its
// Core ATen program torch's ep.run_decompositions(), both as print(ep) text
// (byte for byte) and as op multisets. Where torch's retrace renumbers nodes,
// the fixture is listed in support/known_differences.h and its text is
// compared with the numbering normalised (and must still differ exactly).
// The lowering-only cases of the oracle (fixtures/lowering_cases) are
// compared the same way.
// Also: the Core ATen set and the functionalization rules against torch's,
// the seed's custom table, functionalization of hand-built programs,
// provenance, node expansion and the chained IR levels.
// Dead code goes by the dispatcher's schemas, as in the CLI and the GUI.
// A hand-made rule needs Rewriter, whose emit() Qt would take for its macro: before Qt.
#include "engine/passes/decomp_helpers.h"

#include <QtTest>
#include <QRegularExpression>
#include <map>
#include <set>

#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/passes/core_aten_ops.h"
#include "engine/passes/ir_levels.h"
#include "engine/passes/node_expansion.h"
#include "engine/passes/provenance.h"
#include "engine/passes/view_ops.h"
#include "engine/runtime/op_signatures.h"
#include "engine/serde/pt2_reader.h"
#include "passes/pass_program.h"
#include "support/fixtures.h"
#include "support/lowering_cases.h"
#include "support/known_differences.h"
#include "support/program_text.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

/// "" when `text` is torch's print of the fixture at `level` ("functional",
/// "core"): byte for byte, or, for a fixture listed in known_differences.h,
/// equal once numbering is normalised and still different without that (so
/// the entry cannot go stale).
QString text_difference(const QString& fixture, const QString& level, const QString& text) {
  const QString want = read_text(fixture_file(fixture, level + ".txt"));
  const KnownDifference* known = known_difference("decompositions", fixture + "/" + level);
  if (!known) return text == want ? QString() : "print(ep) differs from torch's, " + first_difference(text, want);
  if (text == want) return fixture + "/" + level + " now prints like torch: drop it from known_differences.h";
  if (QString(known->aspect) == "generated-code file name") {  // <eval_with_key>.N: N is torch's module counter
    static const QRegularExpression eval_key(QStringLiteral(R"(<eval_with_key>\.\d+)"));
    const QString n = QStringLiteral("<eval_with_key>.N");
    return QString(text).replace(eval_key, n) == QString(want).replace(eval_key, n)
               ? QString()
               : "print(ep) differs from torch's beyond the generated-code file name, " +
                     first_difference(QString(text).replace(eval_key, n), QString(want).replace(eval_key, n));
  }
  if (QString(known->aspect) == "operand containers") {  // a HOP's (a, b) read back from the file as [a, b], a subgraph's [a, b] as (a, b)
    static const QRegularExpression tuple(QStringLiteral(R"(\(((?:[A-Za-z_]\w*, )*[A-Za-z_]\w*),?\))"));
    auto as_lists = [](QString t) {
      QStringList lines = t.split('\n');
      for (QString& line : lines)
        if (line.contains(QStringLiteral("torch.ops.higher_order.")) || line.trimmed().startsWith(QStringLiteral("return ")))
          line.replace(tuple, QStringLiteral("[\\1]"));
      return lines.join('\n');
    };
    return as_lists(text) == as_lists(want) ? QString()
                                            : "print(ep) differs from torch's beyond operand containers, " +
                                                  first_difference(as_lists(text), as_lists(want));
  }
  const bool ranges = QString(known->aspect).contains("unbacked ranges");
  const QString a = renumbered(ranges ? without_unbacked_ranges(text) : text, ranges);
  const QString b = renumbered(ranges ? without_unbacked_ranges(want) : want, ranges);
  return a == b ? QString() : "print(ep) differs from torch's beyond " + QString(known->aspect) + ", " + first_difference(a, b);
}

ir::ExportedProgram load(const QString& fixture) {
  return serde::read_pt2(fixture_file(fixture, "program.pt2").toStdString());
}

}  // namespace

class TestDecompositions : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { runtime::use_dispatcher_schema_effects(); }

  // ---- torch's facts ------------------------------------------------------------

  void core_aten_set_is_torchs() {
    const auto facts = read_json(fixtures_dir() + "/decomp_facts.json");
    std::vector<std::string> torch_core;
    for (const auto& v : facts["core_aten_ops"].toArray()) torch_core.push_back(v.toString().toStdString());
    QCOMPARE(passes::core_aten_ops(), torch_core);
  }

  void functionalization_rules_are_torchs_always_decomposed_ops() {
    const auto facts = read_json(fixtures_dir() + "/decomp_facts.json");
    std::set<std::string> always;
    for (const auto& v : facts["always_decomposed"].toArray()) always.insert(v.toString().toStdString());
    // Not a composite op, but torch's functionalization turns it into clone at every level
    // (run_decompositions({}) prints clone: bad2_strict's and the corpus' falcon's functional programs).
    always.insert("aten.lift_fresh_copy.default");
    for (const auto& op : passes::functionalization_rules().ops())
      QVERIFY2(always.count(op), qPrintable(QString::fromStdString(op) + " is not decomposed by torch's empty table"));
  }

  void view_table_holds_torchs_view_overloads() {
    // Functionalization's view table names overloads: each one a view in torch's
    // schema (its result aliases an argument it does not write), so that an
    // overload that is no view, or another one (view.dtype), is not taken for it.
    const auto facts = read_json(fixtures_dir() + "/decomp_facts.json");
    std::set<std::string> views;
    for (const auto& v : facts["view_overloads"].toArray()) views.insert(v.toString().toStdString());
    QVERIFY2(views.count("view.dtype") && views.count("split.Tensor"), "torch's view overloads look incomplete");
    for (std::string_view op : passes::view_op_overloads()) {
      // No alias in its schema, but torch's Core ATen makes it a view (torch._decomp
      // _unsafe_view) before functionalization sees it: the matmul fold's view of its mm.
      if (op == "_unsafe_view.default") continue;
      QVERIFY2(views.count(std::string(op)), qPrintable(QString::fromUtf8(op.data(), int(op.size())) +
                                                         " is no view overload of torch's"));
    }
  }

  // ---- every fixture against torch ----------------------------------------------------

  void matches_torch_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("level");
    QStringList names = fixtures_with_status("ok");
    // The lowering-only cases (decomp_cases.py's LOWERING_CASES: the lowered
    // inputs' order, matmul folding), in a folder of the fixtures.
    names << lowering_cases();
    for (const auto& n : names) {
      QTest::newRow(qPrintable(n + "/functional")) << n << "functional";
      QTest::newRow(qPrintable(n + "/core")) << n << "core";
    }
  }

  void matches_torch() {
    QFETCH(QString, fixture);
    QFETCH(QString, level);
    QVERIFY2(QFile::exists(fixture_file(fixture, "decomp.json")), "the oracle wrote no decomp.json for this fixture");
    const auto record = read_json(fixture_file(fixture, "decomp.json"))[level].toObject();
    const auto ep = load(fixture);
    passes::LoweringReport report;
    std::optional<ir::ExportedProgram> ours;
    std::string error;
    try {
      ours = passes::lower_to(ep, *passes::parse_ir_level(level.toStdString()), nullptr, &report);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (known_difference("decompositions", fixture + "/" + level, "refused")) {  // known_differences.h says why
      QVERIFY2(!ours, "ExportLens now lowers this program: drop it from known_differences.h");
      QVERIFY2(error.find("view is not functionalized") != std::string::npos, error.c_str());
      return;
    }
    if (record["status"].toString() == "error") {
      QVERIFY2(!ours, "torch refuses to lower this program; ExportLens lowered it");
      QCOMPARE(QString::fromStdString(error), record["error"].toString());
      return;
    }
    QVERIFY2(ours, error.c_str());
    for (const auto& w : report.warnings) qWarning("%s", w.c_str());
    QVERIFY2(report.warnings.empty(), "a rule failed (see the warnings above)");
    const auto findings = ir::verify(*ours);
    QVERIFY2(findings.empty(), findings.empty() ? "" : findings[0].str().c_str());

    const QString text = QString::fromStdString(ir::print_program(*ours));
    if (const QString dump = qEnvironmentVariable("EXPORTLENS_DECOMP_DUMP"); !dump.isEmpty()) {
      QFile f(dump + "/" + QString(fixture).replace('/', '_') + "." + level + ".txt");  // for looking at a difference
      if (f.open(QIODevice::WriteOnly)) f.write(text.toUtf8());
    }
    std::multiset<std::string> our_ops;
    collect_ops(ours->graph_module, our_ops);
    const auto torch_ops = json_ops(record["ops"].toArray());
    QVERIFY2(our_ops == torch_ops,
             qPrintable("op multisets differ\nours:\n" + QString::fromStdString(describe(our_ops)) +
                        "torch:\n" + QString::fromStdString(describe(torch_ops))));

    const QString difference = text_difference(fixture, level, text);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
  }

  void seed_custom_table_matches_torch() {
    const auto ep = load("decomp_example");
    const auto table = passes::decomposition_table("double_conv2d");
    const auto ours = passes::run_decompositions(ep, table);
    QCOMPARE(QString::fromStdString(ir::print_program(ours)), read_text(fixture_file("decomp_example", "core_double_conv2d.txt")));
  }

  // The lowering reports each top-level node and stops between nodes once cancelled.
  void lowering_reports_progress_and_stops_when_cancelled() {
    const auto ep = load("decomp_example");
    const int nodes = int(ep.graph().size());
    std::vector<int> seen;
    CancelToken token;
    const Progress watch{[&](int done, int total) {
                           QCOMPARE(total, nodes);
                           seen.push_back(done);
                         },
                         &token};
    passes::run_decompositions(ep, passes::decomposition_table("core"), nullptr, watch);
    QCOMPARE(int(seen.size()), nodes);
    QCOMPARE(seen.back(), nodes - 1);
    int reported = 0;
    const Progress stop{[&](int, int) {
                          if (++reported == 3) token.cancel();
                        },
                        &token};
    QVERIFY_THROWS_EXCEPTION(Cancelled, passes::run_decompositions(ep, passes::decomposition_table("core"), nullptr, stop));
    QCOMPARE(reported, 3);
  }

  void tables_are_registered() {
    const auto names = passes::decomposition_table_names();
    for (const char* n : {"core", "functional", "double_conv2d"})
      QVERIFY(std::find(names.begin(), names.end(), n) != names.end());
    QVERIFY(passes::decomposition_table("functional").empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, passes::decomposition_table("nope"));
    passes::DecompositionTable mine = passes::default_decompositions();
    mine.set_name("no_linear");
    mine.remove("aten.linear.default");
    passes::register_decomposition_table(mine);
    const auto ours = passes::run_decompositions(load("m_linear"), passes::decomposition_table("no_linear"));
    QCOMPARE(passes::op_histogram(ours), (std::map<std::string, int>{{"aten.linear.default", 1}}));
  }

  // ---- functionalization ---------------------------------------------------------------

  void user_input_mutation_becomes_an_output() {
    testing::ProgramBuilder p = testing::pass_program();
    ir::Node* x = p.input("x", ir::InputKind::UserInput, {3, 4});
    ir::Node* m = p.call("mul_", "aten.mul_.Tensor", {x, int64_t{2}});
    p.output({m});
    const auto ours = passes::run_decompositions(p.ep, passes::decomposition_table("functional"));
    QCOMPARE(ours.signature.outputs.size(), size_t(2));
    QCOMPARE(ours.signature.outputs[0].kind, ir::OutputKind::UserInputMutation);
    QCOMPARE(ours.signature.outputs[0].target.value_or(""), std::string("x"));
    QCOMPARE(ours.signature.outputs[0].arg.name, std::string("mul"));
    QCOMPARE(ours.signature.outputs[1].arg.name, std::string("mul"));
    QCOMPARE(passes::op_histogram(ours), (std::map<std::string, int>{{"aten.mul.Tensor", 1}}));
  }

  void mutation_through_an_unfold_is_refused() {
    // One line: the mutating node, the view, its op (torch writes it back with unfold_backward).
    for (const char* level : {"functional", "core"}) {
      std::string error = "lowered";
      try {
        passes::lower_to(load("lowering_cases/unfold_of_intermediate"), *passes::parse_ir_level(level));
      } catch (const passes::DecompositionError& e) {
        error = e.what();
      }
      QCOMPARE(error, std::string("'mul_' mutates 'unfold', a view made by aten.unfold.default: "
                                  "mutation through a unfold view is not functionalized"));
    }
  }

  void mutation_through_a_view_writes_back() {
    // y = x[0]; y.add_(1); return x + 0: x's new value is select_scatter(x, add, 0, 0)
    testing::ProgramBuilder p = testing::pass_program();
    ir::Node* x = p.input("b_buf", ir::InputKind::Buffer, {3, 4}, "buf");
    ir::Node* sel = p.call("select", "aten.select.int", {x, int64_t{0}, int64_t{0}});
    p.call("add_", "aten.add_.Tensor", {sel, int64_t{1}});
    ir::Node* out = p.call("add_1", "aten.add.Tensor", {x, int64_t{0}});
    p.output({out});
    const auto ours = passes::run_decompositions(p.ep, passes::decomposition_table("functional"));
    const auto h = passes::op_histogram(ours);
    QCOMPARE(h.at("aten.select_scatter.default"), 1);
    QCOMPARE(ours.signature.outputs[0].kind, ir::OutputKind::BufferMutation);
    QCOMPARE(ours.signature.outputs[0].target.value_or(""), std::string("buf"));
    // the later read of x sees the scattered value
    const ir::Node* add1 = ours.graph().find("add_1");
    QVERIFY(add1);
    QCOMPARE(add1->args()[0].node()->target.qualified(), std::string("torch.ops.aten.select_scatter.default"));
  }

  void mutation_through_a_rules_view_of_its_view_reaches_its_intermediate() {
    // A rule makes exp(x) as unsqueeze(view(s, [12]), 0) of its own s = sigmoid(view(x, [3, 4])):
    // y = exp(x); y.add_(1); y * 2 writes the add back through both views into s
    // (squeeze.dim, then view to s's sizes), and y is read again through both.
    passes::DecompositionTable table = passes::decomposition_table("functional");
    table.set_name("rule_view_of_view");
    table.set(passes::DecompositionRule{
        "aten.exp.default", "test", "a rule's view of its own view", [](passes::Rewriter& b, const passes::OpCall& c) {
          ir::Node* rows = b.call1("aten.view.default", {c.tensor(0, "self"), passes::detail::ints({3, 4})});
          ir::Node* s = b.call1("aten.sigmoid.default", {rows});
          ir::Node* flat = b.call1("aten.view.default", {s, passes::detail::ints({12})});
          return b.call("aten.unsqueeze.default", {flat, int64_t{0}});
        }});
    testing::ProgramBuilder p = testing::pass_program();
    ir::Node* x = p.input("x", ir::InputKind::UserInput, {1, 12});
    ir::Node* y = p.call("exp", "aten.exp.default", {x});
    p.call("add_", "aten.add_.Tensor", {y, int64_t{1}});
    p.output({p.call("mul", "aten.mul.Tensor", {y, int64_t{2}})});
    const auto ours = passes::run_decompositions(p.ep, table);
    const ir::Node* mul = ours.graph().find("mul");
    QVERIFY(mul);
    QStringList chain;  // mul's first operand back to the input, each view with its sizes
    for (const ir::Node* n = mul->args()[0].node(); n && n->op == ir::OpKind::CallFunction; n = n->args()[0].node()) {
      QString step = QString::fromStdString(n->target.op_name());
      if (step == "view") {
        QStringList sizes;
        for (const auto& d : n->args()[1].list()->items) sizes << QString::number(std::get<int64_t>(d.v));
        step += "[" + sizes.join(", ") + "]";
      }
      chain << step;
    }
    QCOMPARE(chain, (QStringList{"unsqueeze", "view[12]", "view[3, 4]", "squeeze", "add", "unsqueeze", "view[12]",
                                 "sigmoid", "view[3, 4]"}));
  }

    void mutated_constant_is_refused_like_torch() {
    testing::ProgramBuilder p = testing::pass_program();
    ir::Node* c = p.input("c_t", ir::InputKind::ConstantTensor, {2}, "t");
    ir::Node* m = p.call("add_", "aten.add_.Tensor", {c, int64_t{1}});
    p.output({m});
    QVERIFY_THROWS_EXCEPTION(passes::DecompositionError,
                             passes::run_decompositions(p.ep, passes::decomposition_table("functional")));
  }

  // ---- provenance, expansion, levels ---------------------------------------------------

  void core_nodes_lead_back_to_the_user_op() {
    const auto ep = load("my_module");
    passes::ProgramLevels levels(ep);
    const auto& core = levels.at(passes::IrLevel::Core);
    const ir::Node* addmm = core.graph().find("addmm");
    QVERIFY(addmm);
    const auto& chain = passes::lineage(*addmm);
    QCOMPARE(chain.size(), size_t(2));
    QCOMPARE(chain[0].pass, std::string("core"));
    QCOMPARE(chain[0].node, std::string("linear"));
    QCOMPARE(chain[1].pass, std::string("functional"));
    QCOMPARE(chain[1].target, std::string("aten.linear.default"));
    const ir::Node* relu = core.graph().find("relu");
    QCOMPARE(passes::exported_origin(*relu).target, std::string("aten.relu_.default"));
    const auto where = passes::source_location(*relu);
    QVERIFY(where && where->line == 28);
    QCOMPARE(passes::descendants(core, "linear").size(), size_t(2));  // permute, addmm
  }

  // The GUI's chained levels (training -> functional -> core, each from the
  // one before) print what torch's run_decompositions() prints.
  void chained_levels_print_like_torch() {
    for (const char* name : {"my_module", "decomp_example", "transformer_block", "small_cnn_train",
                             "lowering_cases/lifted_state_order_strict", "lowering_cases/matmul_requires_grad"}) {
      const auto ep = load(name);
      passes::ProgramLevels levels(ep);
      for (const auto& [level, label] : {std::pair{passes::IrLevel::Functional, "functional"}, {passes::IrLevel::Core, "core"}}) {
        const QString text = QString::fromStdString(ir::print_program(levels.at(level)));
        const QString difference = text_difference(name, label, text);
        QVERIFY2(difference.isEmpty(), qPrintable(QString(name) + "/" + label + ": " + difference));
      }
    }
  }

  void expands_one_node() {
    const auto ep = load("m_linear");
    const ir::Node* linear = ep.graph().find("linear");
    const auto core = passes::decomposition_table("core");  // e.rule points into it
    const auto e = passes::expand_node(*linear, core);
    QVERIFY(e.decomposed);
    QCOMPARE(e.rule->family, std::string("linear"));
    std::vector<std::string> ops;
    for (const ir::Node* n : e.graph.graph.nodes())
      if (n->op == ir::OpKind::CallFunction) ops.push_back(passes::op_key(n->target));
    QCOMPARE(ops, (std::vector<std::string>{"aten.permute.default", "aten.addmm.default"}));
    QCOMPARE(e.graph.graph.placeholders().size(), size_t(3));
  }

  void info_flags_ops_outside_the_core_set() {
    const auto ep = load("transformer_block");
    QVERIFY(!passes::non_core_ops(ep).empty());  // linear, layer_norm, ... in the training IR
    QVERIFY(passes::non_core_ops(passes::lower_to(ep, passes::IrLevel::Core)).empty());
  }
};

QTEST_GUILESS_MAIN(TestDecompositions)
#include "test_decompositions.moc"

// Decomposition tables from a model library (EXPORTLENS_DECOMPOSITIONS): the
// seed's doubling conv2d written as a LibTorch function in
// custom_table_model.cpp must lower decomp_example exactly as torch does
// with the same table (print(ep) and ops of the oracle's decomp.json), and
// compute what torch's program lowered with that table computes. The
// CLI's `decompose --load` reaches the same table.
#include <torch/csrc/jit/serialization/pickle.h>

#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include "support/torch_values.h"

#include "engine/ir/printer.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"
#include "engine/trace/trace_facade.h"

#include <QtTest>
#include <fstream>

#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

const char* kTable = "my_double_conv2d";

/// torch's str(node.target) of every call_function node, in graph order.
QStringList op_sequence(const ir::ExportedProgram& ep) {
  QStringList out;
  for (const ir::Node* n : ep.graph().nodes()) {
    if (n->op != ir::OpKind::CallFunction) continue;
    out << (n->target.is_getitem() ? QStringLiteral("<built-in function getitem>")
                                   : QString::fromStdString(passes::op_key(n->target)));
  }
  return out;
}

ir::ExportedProgram lowered(const std::string& table) {
  const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2").toStdString());
  return passes::run_decompositions(ep, passes::decomposition_table(table));
}

}  // namespace

class TestCustomTable : public QObject {
  Q_OBJECT
 private slots:
  void library_registers_its_table() {
    const auto tables = trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
    QCOMPARE(tables, (std::vector<std::string>{kTable, "broken_conv2d"}));
    QVERIFY(passes::has_decomposition_table(kTable));
    const auto t = passes::decomposition_table(kTable);
    // The default table with conv2d overridden: every core rule is still there.
    QCOMPARE(t.ops(), passes::default_decompositions().ops());
    QCOMPARE(QString::fromStdString(t.find("aten.conv2d.default")->family), QStringLiteral("custom"));
    // A library with tables only has no model to trace.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, trace::trace_library_model(EXPORTLENS_CUSTOM_TABLE_MODEL, ""));
  }

  void lowering_matches_torch() {
    trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
    const auto ours = lowered(kTable);
    const QJsonObject oracle =
        read_json(fixture_file("decomp_example", "decomp.json")).value("custom").toObject().value("double_conv2d").toObject();
    QStringList want;
    for (const auto& v : oracle.value("ops").toArray()) want << v.toString();
    QVERIFY(!want.isEmpty());
    QCOMPARE(op_sequence(ours), want);
    QCOMPARE(QString::fromStdString(ir::print_program(ours)),
             read_text(fixture_file("decomp_example", "core_double_conv2d.txt")));
  }

  // The library's table computes what torch's program lowered with the same
  // custom table computes, and not what the unlowered program computes.
  void outputs_match_torchs_custom_lowering() {
    trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
    const auto inputs = load_tuple(fixture_file("decomp_example", "inputs.pt"));
    const auto got = runtime::Interpreter(lowered(kTable), c10::kCPU).run(inputs);
    const auto want = load_tuple(fixture_file("decomp_example", "core_double_conv2d_outputs.pt"));
    const auto plain = load_tuple(fixture_file("decomp_example", "outputs.pt"));
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const QString diff = compare_values(got[i], want[i]);
      QVERIFY2(diff.isEmpty(), qPrintable("output " + QString::number(i) + ": " + diff));
      QVERIFY2(!compare_values(got[i], plain[i]).isEmpty(), "the custom conv2d was not applied");
    }
  }

  void failing_rule_keeps_the_op_and_says_why() {
    trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
    const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2").toStdString());
    const auto table = passes::decomposition_table("broken_conv2d");
    passes::LoweringReport report;
    const auto lowered = passes::lower_to(ep, passes::IrLevel::Core, &table, &report);
    QCOMPARE(op_sequence(lowered).count("aten.conv2d.default"), 1);
    QCOMPARE(report.warnings.size(), size_t{1});
    const QString warning = QString::fromStdString(report.warnings[0]);
    QVERIFY2(warning.contains("aten.conv2d.default") && warning.contains("this rule always fails"), qPrintable(warning));
  }

  void cli_decompose_loads_the_library() {
    const auto listed = run_exportlens({"decompose", "--tables", "--load", EXPORTLENS_CUSTOM_TABLE_MODEL});
    QCOMPARE(listed.code, 0);
    QVERIFY2(listed.out.contains(QString(kTable) + "  ("), qPrintable(listed.out));
    const auto r = run_exportlens({"decompose", fixture_file("decomp_example", "program.pt2"), "--ir", "core",
                                   "--table", kTable, "--load", EXPORTLENS_CUSTOM_TABLE_MODEL});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, read_text(fixture_file("decomp_example", "core_double_conv2d.txt")) + "\n");
    const auto missing = run_exportlens({"decompose", "--tables", "--load", "/nonexistent/lib.so"});
    QVERIFY(missing.code != 0);
    QVERIFY2(missing.err.contains("/nonexistent/lib.so"), qPrintable(missing.err));
  }
};

QTEST_GUILESS_MAIN(TestCustomTable)
#include "test_custom_table.moc"

// `exportlens decompose`, `print --ir` and `info --ir core` headless: the
// lowered programs print as torch's run_decompositions() results, custom
// tables are chosen by name, and bad options are usage errors (exit 2).
#include <QTemporaryDir>
#include <QtTest>

#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens::testing;

namespace {

using Counts = QMap<QString, int>;

/// torch's ops of one level of a fixture (decomp.json), the ATen ones, counted.
Counts torch_aten_ops(const QString& fixture, const QString& level) {
  Counts c;
  for (const auto& op : read_json(fixture_file(fixture, "decomp.json"))[level].toObject()["ops"].toArray())
    if (op.toString().startsWith("aten.")) ++c[op.toString()];
  return c;
}

/// The lines of `out` after `heading` up to the first one not indented.
QStringList section(const QString& out, const QString& heading) {
  QStringList lines;
  bool in = false;
  for (const auto& line : out.split('\n')) {
    if (in && !line.startsWith("  ")) break;
    if (in) lines << line.trimmed();
    if (line == heading) in = true;
  }
  return lines;
}

/// info's op histogram ("ops:" then "N  op" lines), the ATen ones.
Counts info_histogram(const QString& out) {
  Counts c;
  for (const auto& line : section(out, "ops:")) {
    const auto parts = line.split("  ");
    if (parts.size() == 2 && parts[1].startsWith("aten.")) c[parts[1]] = parts[0].toInt();
  }
  return c;
}

/// The ops `info --ir core` flags ("op  xN" lines).
Counts flagged_ops(const QString& out) {
  Counts c;
  for (const auto& line : section(out, "ops outside the Core ATen operator set:")) {
    const auto parts = line.split("  x");
    if (parts.size() == 2) c[parts[0]] = parts[1].toInt();
  }
  return c;
}

/// The ATen ops torch's Core ATen set (decomp_facts.json) lacks, less those a
/// Core ATen program keeps: functional forms of mutating core ops, asserts.
Counts outside_core(const Counts& ops) {
  QSet<QString> core;
  for (const auto& op : read_json(fixtures_dir() + "/decomp_facts.json")["core_aten_ops"].toArray()) core << op.toString();
  static const QSet<QString> kept{"aten._native_batch_norm_legit_functional.default", "aten._assert_scalar.default",
                                  "aten._assert_tensor_metadata.default", "aten.sym_constrain_range_for_size.default",
                                  "aten.sym_constrain_range.default"};
  Counts out;
  for (auto it = ops.begin(); it != ops.end(); ++it)
    if (!core.contains(it.key()) && !kept.contains(it.key())) out[it.key()] = it.value();
  return out;
}

const char* const kInfoFixtures[] = {"m_linear", "book_mlp", "decomp_example", "transformer_block", "small_cnn",
                                     "small_cnn_train"};

}  // namespace

class TestDecomposeCli : public QObject {
  Q_OBJECT

 private slots:
  void decompose_prints_torchs_program_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("expected");
    for (const char* n : {"m_linear", "book_mlp", "my_module", "decomp_example", "transformer_block"}) {
      const QString f = fixture_file(n, "program.pt2");
      QTest::newRow(qPrintable(QString(n) + " core")) << QStringList{"decompose", f, "--ir", "core"} << n << "core.txt";
      QTest::newRow(qPrintable(QString(n) + " functional"))
          << QStringList{"decompose", f, "--ir", "functional"} << n << "functional.txt";
    }
    QTest::newRow("print --ir core") << QStringList{"print", fixture_file("small_cnn", "program.pt2"), "--ir", "core"}
                                     << "small_cnn" << "core.txt";
    QTest::newRow("double_conv2d")
        << QStringList{"decompose", fixture_file("decomp_example", "program.pt2"), "--ir", "core", "--table",
                       "double_conv2d"}
        << "decomp_example" << "core_double_conv2d.txt";
  }
  void decompose_prints_torchs_program() {
    QFETCH(QStringList, args);
    QFETCH(QString, fixture);
    QFETCH(QString, expected);
    const auto r = run_exportlens(args);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.err, QString());
    QCOMPARE(r.out, read_text(fixture_file(fixture, expected)) + "\n");
  }

  // decompose --out writes the lowered program as torch.export.save writes
  // ep.run_decompositions(): torch loads it with the same dialect and
  // verifiers as its own lowering of the same file (ATEN, where the exported
  // program is TRAINING), and ExportLens reads it back.
  void decompose_out_is_saved_as_torchs_lowering_data() {
    QTest::addColumn<QString>("level");
    QTest::newRow("core") << "core";
    QTest::newRow("functional") << "functional";
  }
  void decompose_out_is_saved_as_torchs_lowering() {
    QFETCH(QString, level);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString in = fixture_file("transformer_block", "program.pt2"), out = tmp.filePath("lowered.pt2");
    const auto r = run_exportlens({"decompose", in, "--ir", level, "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // Read back, it is the program decompose printed (a saved program's
    // multi-output nodes come back with their unused getitems, in torch too).
    const auto back = run_exportlens({"print", out});
    QVERIFY2(back.code == 0, qPrintable(back.err));
    QCOMPARE(back.out.count(" = torch.ops."), r.out.count(" = torch.ops."));
    const auto torch = run_python(
        "import sys, torch\n"
        "ours = torch.export.load(sys.argv[1])\n"
        "source = torch.export.load(sys.argv[2])\n"
        "lowered = source.run_decompositions({} if sys.argv[3] == 'functional' else None)\n"
        "names = lambda ep: [v.dialect for v in ep.verifiers]\n"
        "print(ours.dialect, names(ours))\n"
        "print(lowered.dialect, names(lowered))\n"
        "print(source.dialect, names(source))\n",
        {out, in, level});
    QVERIFY2(torch.code == 0, qPrintable(torch.err));
    const QStringList lines = torch.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], lines[1]);  // ours as torch's lowering
    QVERIFY2(lines[1] != lines[2], "torch's lowering keeps the training dialect: the test no longer tells");
  }

  void info_histogram_is_torchs_data() {
    QTest::addColumn<QString>("fixture");
    for (const char* n : kInfoFixtures) QTest::newRow(n) << n;
  }
  void info_histogram_is_torchs() {
    QFETCH(QString, fixture);
    const auto r = run_exportlens({"info", fixture_file(fixture, "program.pt2"), "--ir", "core"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Counts want = torch_aten_ops(fixture, "core");
    QVERIFY(!want.isEmpty());
    QCOMPARE(info_histogram(r.out), want);
    // torch's Core ATen programs of these fixtures stay inside the set.
    QCOMPARE(outside_core(want), Counts());
    QVERIFY2(r.out.contains("every op is in the Core ATen operator set"), qPrintable(r.out));
    QCOMPARE(flagged_ops(r.out), Counts());
  }

  void info_flags_ops_outside_the_core_set_data() {
    QTest::addColumn<QString>("fixture");
    for (const char* n : kInfoFixtures) QTest::newRow(n) << n;
  }
  void info_flags_ops_outside_the_core_set() {
    // --table functional (the empty table) keeps the composite ops torch's
    // run_decompositions({}) keeps: each must be flagged, with its count.
    QFETCH(QString, fixture);
    const auto r = run_exportlens({"info", fixture_file(fixture, "program.pt2"), "--ir", "core", "--table", "functional"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Counts want = outside_core(torch_aten_ops(fixture, "functional"));
    QVERIFY2(!want.isEmpty(), "the fixture has no composite op to flag");
    QCOMPARE(flagged_ops(r.out), want);
    QVERIFY(!r.out.contains("every op is in the Core ATen operator set"));
  }

  void info_reports_on_the_core_set_only_for_core() {
    const auto functional = run_exportlens({"info", fixture_file("m_linear", "program.pt2"), "--ir", "functional"});
    QVERIFY2(functional.code == 0, qPrintable(functional.err));
    QCOMPARE(info_histogram(functional.out), torch_aten_ops("m_linear", "functional"));
    QVERIFY(!functional.out.contains("Core ATen"));
  }

  void lists_the_tables() {
    const auto r = run_exportlens({"decompose", "--tables"});
    QCOMPARE(r.code, 0);
    for (const char* t : {"core", "functional", "double_conv2d"}) QVERIFY(r.out.contains(QString("\n") + t) || r.out.startsWith(t));
  }

  void usage_errors_data() {
    QTest::addColumn<QStringList>("args");
    const QString f = fixture_file("m_linear", "program.pt2");
    QTest::newRow("no --ir") << QStringList{"decompose", f};
    QTest::newRow("bad level") << QStringList{"decompose", f, "--ir", "fancy"};
    QTest::newRow("training") << QStringList{"decompose", f, "--ir", "training"};
    QTest::newRow("unknown table") << QStringList{"decompose", f, "--ir", "core", "--table", "nope"};
    QTest::newRow("table without core") << QStringList{"print", f, "--ir", "functional", "--table", "core"};
  }
  void usage_errors() {
    QFETCH(QStringList, args);
    const auto r = run_exportlens(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("error:"));
  }

  void refuses_what_torch_refuses() {
    // bad2_strict writes into a lifted constant: torch's run_decompositions raises the same.
    const auto r = run_exportlens({"decompose", fixture_file("bad2_strict", "program.pt2"), "--ir", "functional"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("Constant lifted_tensor_1 is mutated in the forward method"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(TestDecomposeCli)
#include "test_decompose_cli.moc"

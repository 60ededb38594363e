// The exportlens executable, headless: print equals torch's print(ep), run
// writes outputs that torch.load reads and that equal torch's, and every
// error is one clear message with a non-zero exit code.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens::testing;

class TestCli : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  // unknown_op.pt2: book_mlp with its first op renamed to one no library defines
  // (the gallery's custom op is registered in this binary, so custom_op runs).
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    const auto r = run_python("import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
                          {QString(EXPORTLENS_SOURCE_DIR) + "/tests/engine/make_bad_archives.py",
                           fixture_file("book_mlp", "program.pt2"), tmp_.path()});
    QVERIFY2(r.code == 0, qPrintable(r.err));
  }

  void print_equals_torch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& n : fixtures_with_status("ok")) QTest::newRow(qPrintable(n)) << n;
  }
  void print_equals_torch() {
    QFETCH(QString, name);
    const auto r = run_exportlens({"print", fixture_file(name, "program.pt2")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, read_text(fixture_file(name, "print.txt")) + "\n");  // print() adds the newline
  }

  void run_outputs_equal_torch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& n : {"book_mlp", "dynamic_model_auto", "bad1_fixed", "map_module", "decomp_example",
                          "unbacked_item_tolist", "item_repeat"})
      QTest::newRow(n) << QString(n);
  }
  void run_outputs_equal_torch() {
    QFETCH(QString, name);
    const QString out = tmp_.filePath(name + "_out.pt");
    const auto r = run_exportlens({"run", fixture_file(name, "program.pt2"), "--inputs", fixture_file(name, "inputs.pt"),
                               "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("ran on cpu"));
    // The oracle reads our file with torch.load and compares with its own outputs.
    const auto check = run_python(
        "import sys, torch\n"
        "got = torch.load(sys.argv[1], weights_only=True)\n"
        "want = torch.load(sys.argv[2], weights_only=True)\n"
        "def same(a, b):\n"
        "    if isinstance(b, torch.Tensor):\n"
        "        return isinstance(a, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and "
        "torch.allclose(a, b, rtol=1e-5, atol=1e-6)\n"
        "    if isinstance(b, (tuple, list)):\n"
        "        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))\n"
        "    return a == b\n"
        "print('SAME' if same(tuple(got), tuple(want)) else f'DIFFERENT {got!r} {want!r}')\n",
        {out, fixture_file(name, "outputs.pt")});
    QVERIFY2(check.code == 0, qPrintable(check.err));
    QCOMPARE(check.out.trimmed(), QString("SAME"));
  }

  void run_random_inputs() {
    const auto r = run_exportlens({"run", fixture_file("dynamic_model_auto", "program.pt2"), "--random", "--seed", "3"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("output 0: torch.float32[6, 3]"));
    QVERIFY(r.out.contains("output 1: torch.float32[32]"));
  }

  void info_summarizes() {
    const auto r = run_exportlens({"info", fixture_file("my_module", "program.pt2")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("parameters: 1010 (3.94531 KiB)"), qPrintable(r.out));  // Linear(100, 10)
    QVERIFY(r.out.contains("1  aten.linear.default"));
    QVERIFY(r.out.contains("x: USER_INPUT f32[8, 100]"));
    const auto unknown = run_exportlens({"info", tmp_.filePath("unknown_op.pt2")});
    QCOMPARE(unknown.code, 0);
    QVERIFY(unknown.out.contains("not runnable here"));
    QVERIFY(unknown.out.contains("nowhere_lib::not_loaded"));
  }

  void dot_writes_graphviz() {
    const auto r = run_exportlens({"dot", fixture_file("book_mlp", "program.pt2")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("digraph"));
    QVERIFY(r.out.contains("\"linear\" -> \"relu\""));
    QVERIFY(r.out.contains("label=\"fc1\""));  // module-scope cluster
  }

  void errors_are_one_clear_message() {
    auto r = run_exportlens({"print", "/nonexistent/model.pt2"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("exportlens print: error: /nonexistent/model.pt2: no such file"));
    QCOMPARE(r.err.count('\n'), 1);

    r = run_exportlens({"run", fixture_file("book_mlp", "program.pt2")});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("run needs --inputs IN.pt or --random"));

    r = run_exportlens({"print", tmp_.filePath("unknown_op.pt2")});
    QCOMPARE(r.code, 0);  // an unknown op still opens and prints
    r = run_exportlens({"run", tmp_.filePath("unknown_op.pt2"), "--random"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("nowhere_lib::not_loaded"), qPrintable(r.err));

    r = run_exportlens({"print", "--bogus", "x.pt2"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("unknown option '--bogus'"));

    r = run_exportlens({"frobnicate"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("unknown command or file 'frobnicate'"));

    r = run_exportlens({"run", fixture_file("book_mlp", "program.pt2"), "--random", "--device", "cuda"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("cannot run on cuda"), qPrintable(r.err));
  }

  // engine/sources: wherever a command takes FILE.pt2, a model library and a
  // built-in example open too (traced), and a file is told by its bytes when
  // its name does not say.
  void every_program_source_opens() {
    auto traced = run_exportlens({"example", "book_mlp"});
    QCOMPARE(traced.code, 0);
    auto r = run_exportlens({"print", "example:book_mlp"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, traced.out);
    r = run_exportlens({"info", "example:book_mlp"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("linear"));

    traced = run_exportlens({"trace", EXPORTLENS_README_MODEL});
    QVERIFY2(traced.code == 0, qPrintable(traced.err));
    r = run_exportlens({"print", EXPORTLENS_README_MODEL});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, traced.out);

    const QString unnamed = tmp_.filePath("book_mlp_archive");  // a .pt2 without its suffix
    QVERIFY(QFile::copy(fixture_file("book_mlp", "program.pt2"), unnamed));
    r = run_exportlens({"print", unnamed});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, read_text(fixture_file("book_mlp", "print.txt")) + "\n");

    const QString notes = tmp_.filePath("notes");
    QFile f(notes);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a program\n");
    f.close();
    r = run_exportlens({"print", notes});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err, "exportlens print: error: " + notes +
                        ": not a program source (a .pt2 archive, a model library, example:NAME, a capture folder or "
                        "a torch trace log)\n");

    r = run_exportlens({"print", "example:no_such_example"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("no gallery example 'no_such_example'"), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
  }

  void help() {
    auto r = run_exportlens({"--help"});
    QCOMPARE(r.code, 0);
    for (const char* c : {"print", "info", "run", "dot"}) QVERIFY(r.out.contains(QString("  ") + c));
    r = run_exportlens({"run", "--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("usage: exportlens run FILE.pt2"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"

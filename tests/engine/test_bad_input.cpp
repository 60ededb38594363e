// Bad input gets one clear error naming what and where — never a crash. The
// malformed archives are made from a real torch.export archive by
// make_bad_archives.py (one defect each).
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

class TestBadInput : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString bad(const QString& file) const { return dir_.filePath(file); }

  // Running book_mlp on these inputs must fail before any op runs, saying `fragment`.
  void expect_run_error(const QString& inputs, const QString& fragment) {
    const auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2").toStdString());
    runtime::RunRequest req;
    req.inputs_file = bad(inputs).toStdString();
    try {
      runtime::run_program(ep, req);
      QFAIL(qPrintable("ran with " + inputs));
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains(fragment), e.what());
    }
  }

  // Reading must throw Pt2Error whose message contains every fragment.
  void expect_read_error(const QString& file, const QStringList& fragments) {
    try {
      serde::read_pt2(bad(file).toStdString());
      QFAIL(qPrintable(file + " was read without an error"));
    } catch (const serde::Pt2Error& e) {
      const QString msg = e.what();
      QVERIFY2(msg.contains(file), qPrintable("error does not name the file: " + msg));
      for (const auto& f : fragments) QVERIFY2(msg.contains(f), qPrintable("'" + f + "' missing in: " + msg));
    }
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(EXPORTLENS_PYTHON, {QString(EXPORTLENS_SOURCE_DIR) + "/tests/engine/make_bad_archives.py",
                                fixture_file("book_mlp", "program.pt2"), dir_.path()});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
  }

  void truncated_zip() { expect_read_error("truncated.pt2", {"truncated"}); }
  void empty_file() { expect_read_error("empty.pt2", {"not a zip archive"}); }
  void not_a_zip() { expect_read_error("not_a_zip.pt2", {"not a zip archive"}); }
  void corrupt_data() { expect_read_error("corrupt_crc.pt2", {"CRC mismatch", "weight_"}); }
  void invalid_json() { expect_read_error("bad_json.pt2", {"invalid JSON", "models/model.json"}); }
  void unknown_schema_version() { expect_read_error("unknown_schema.pt2", {"unsupported schema version 99"}); }
  void missing_weights() { expect_read_error("missing_weights.pt2", {"fc1.weight", "missing"}); }
  void dangling_node_reference() {
    expect_read_error("dangling_ref.pt2", {"no_such_value", "graph.nodes[0].inputs[0]"});
  }
  void unknown_dtype() { expect_read_error("bad_dtype.pt2", {"unknown dtype code 999"}); }
  void missing_file() {
    try {
      serde::read_pt2("/nonexistent/x.pt2");
      QFAIL("read a file that does not exist");
    } catch (const serde::Pt2Error& e) {
      QVERIFY(QString(e.what()).contains("no such file"));
    }
  }

  void mismatched_input_shapes() {
    expect_run_error("wrong_shape_inputs.pt", "Guard failed: x.size()[0] == 2 (got 3)");
  }
  void mismatched_input_dtype() {
    expect_run_error("wrong_dtype_inputs.pt", "expected dtype torch.float32, got torch.float64");
  }
  void garbage_inputs_file() { expect_run_error("not_inputs.pt", "not a torch.save file"); }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"

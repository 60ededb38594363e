// .pt2 files from older torch releases (tests/fixtures/old_torch/<release>/,
// written by tests/oracle/old_torch/make_old_torch_fixtures.sh with torch
// 2.5 ... 2.12 on the seeds' models): every one opens, prints as that
// release printed it (ir/release_print.h: the older printers' layout),
// runs to that release's outputs, and saves as a 2.13 file.
// LibTorch headers come before Qt's: Qt's `slots` macro breaks them.
#include "support/torch_values.h"

#include "engine/ir/printer.h"
#include "engine/ir/release_print.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"
#include "engine/trace/gallery/gallery_models.h"

#include <QDir>
#include <optional>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include "support/fixtures.h"
#include "support/known_differences.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString old_torch_dir() { return QStringLiteral(EXPORTLENS_SOURCE_DIR "/tests/fixtures/old_torch"); }

struct OldFixture {
  QString release, name, torch_version;
  QString file(const QString& f) const { return old_torch_dir() + "/" + release + "/" + name + "/" + f; }
};

// Read once: every data row looks its fixture up here.
const std::vector<OldFixture>& old_fixtures() {
  static const std::vector<OldFixture> all = [] {
    std::vector<OldFixture> out;
    for (const QString& release : QDir(old_torch_dir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
      const auto manifest = read_json(old_torch_dir() + "/" + release + "/manifest.json");
      for (const auto& f : manifest["fixtures"].toArray())
        if (f.toObject()["status"].toString() == "ok")
          out.push_back({release, f.toObject()["name"].toString(), manifest["torch_version"].toString()});
    }
    return out;
  }();
  return all;
}

void add_rows() {
  QTest::addColumn<QString>("release");
  QTest::addColumn<QString>("name");
  for (const auto& f : old_fixtures()) QTest::newRow(qPrintable(f.release + "/" + f.name)) << f.release << f.name;
}

// The program, or why it does not open.
std::optional<ir::ExportedProgram> read_old(const OldFixture& f, QString* why) {
  try {
    return serde::read_pt2(f.file("program.pt2").toStdString(), "", runtime::pt2_read_options());
  } catch (const std::exception& e) {
    *why = e.what();
    return std::nullopt;
  }
}

OldFixture fetch(const QString& release, const QString& name) {
  for (const auto& f : old_fixtures())
    if (f.release == release && f.name == name) return f;
  qFatal("no fixture %s/%s", qPrintable(release), qPrintable(name));
}

// The current data row's fixture and its program as ExportLens reads it
// (none, and why, when it does not open).
struct OpenedRow {
  OldFixture fixture;
  std::optional<ir::ExportedProgram> program;
  QString why;
};

OpenedRow open_current_row() {
  QFETCH(QString, release);
  QFETCH(QString, name);
  OpenedRow row{fetch(release, name), std::nullopt, {}};
  row.program = read_old(row.fixture, &row.why);
  return row;
}

}  // namespace

class TestOldTorch : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  void initTestCase() {
    // The gallery's port of the seeds' custom op registers my_custom_library::custom_op with
    // the dispatcher (as Python's torch.library does), so the custom_op programs run here too.
    QVERIFY(!trace::gallery_models().empty());
  }

  void every_release_from_2_5_to_2_12_is_there() {
    QStringList releases = QDir(old_torch_dir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const char* r : {"2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12"})
      QVERIFY2(releases.contains(r), qPrintable(QString("no fixtures of torch %1").arg(r)));
    QVERIFY(old_fixtures().size() >= 8 * 20);
  }

  void opens_data() { add_rows(); }
  void opens() {
    QFETCH(QString, release);
    QFETCH(QString, name);
    const auto f = fetch(release, name);
    try {
      const auto ep = serde::read_pt2(f.file("program.pt2").toStdString(), "", runtime::pt2_read_options());
      const auto meta = read_json(f.file("meta.json"));
      QCOMPARE(ep.schema_major, meta["schema_version"].toArray()[0].toInt());
      QCOMPARE(ep.schema_minor, meta["schema_version"].toArray()[1].toInt());
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  void prints_as_that_release_printed_data() { add_rows(); }
  void prints_as_that_release_printed() {
    const auto row = open_current_row();
    QVERIFY2(row.program, qPrintable(row.why));
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    QCOMPARE(QString::fromStdString(ir::print_program_as_release(ep, ir::torch_release_of(ep.torch_version))),
             read_text(f.file("print.txt")));
  }

  void runs_to_that_releases_outputs_data() { add_rows(); }
  void runs_to_that_releases_outputs() {
    const auto row = open_current_row();
    QVERIFY2(row.program, qPrintable(row.why));
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    std::vector<c10::IValue> got;
    QString error;
    try {
      runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
      got = interp.run(load_tuple(f.file("inputs.pt")));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what()).section('\n', 0, 0);
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto want = load_tuple(f.file("outputs.pt"));
    QCOMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const auto err = compare_values(got[i], want[i]);
      QVERIFY2(err.isEmpty(), qPrintable("output " + QString::number(i) + ": " + err));
    }
  }

  // Saved again by ExportLens, an old file becomes a 2.13 one that prints as 2.13 prints it.
  void saves_as_a_2_13_file_data() { add_rows(); }
  void saves_as_a_2_13_file() {
    QVERIFY(tmp_.isValid());
    const auto row = open_current_row();
    QVERIFY2(row.program, qPrintable(row.why));
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    const QString out = tmp_.filePath(f.release + "_" + f.name + ".pt2");
    QString error;
    try {
      serde::write_pt2(ep, out.toStdString(), runtime::pt2_write_options());
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what()).section('\n', 0, 0);
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto back = serde::read_pt2(out.toStdString());
    QCOMPARE(back.schema_major, serde::kWrittenSchemaMajor);
    const QString saved = QString::fromStdString(ir::print_program(back));
    const QString original = QString::fromStdString(ir::print_program(ep));
    if (const KnownDifference* k = known_difference("old_torch", f.release + "/" + f.name, "saved print")) {
      QVERIFY2(saved != original, qPrintable(QString("the known difference is gone: ") + k->reason));
      return;
    }
    QCOMPARE(saved, original);
  }
};

QTEST_GUILESS_MAIN(TestOldTorch)
#include "test_old_torch.moc"

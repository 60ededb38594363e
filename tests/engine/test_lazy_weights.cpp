// Weights read on demand (ReadOptions::load_weights = false): opening reads
// the program and the weights' index only; a payload's bytes are read when
// asked for (a run), equal those an eager read gets, and are counted; a run
// of a lazily opened program gives what a run of the eagerly read one gives
// (test_runtime checks that against torch); the stored sizes still let the
// verifier refuse a weight whose view runs past its bytes, and an entry that
// would inflate past the limits is refused at open as when read.
#include <QtTest>

#include <filesystem>

#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

ir::ExportedProgram read(const std::string& path, bool load_weights) {
  serde::ReadOptions options;
  options.load_weights = load_weights;
  return serde::read_pt2(path, "", options);
}

std::string program_file(const QString& fixture) { return fixture_file(fixture, "program.pt2").toStdString(); }

uint64_t bytes_read(const ir::ExportedProgram& ep) {
  for (const auto* list : {&ep.state_dict, &ep.constants})
    for (const auto& [key, p] : *list)
      if (p.source) return p.source->bytes_read();
  return 0;
}

runtime::RunReport run(const ir::ExportedProgram& ep, const QString& fixture) {
  runtime::RunRequest request;
  request.inputs_file = fixture_file(fixture, "inputs.pt").toStdString();
  return runtime::run_program(ep, request);
}

}  // namespace

class TestLazyWeights : public QObject {
  Q_OBJECT
 private slots:
  void opening_reads_no_weight_data() {
    QTest::addColumn<QString>("fixture");
    int with_weights = 0;
    for (const QString& name : fixtures_with_status("ok")) {
      const ir::ExportedProgram lazy = read(program_file(name), false);
      const ir::ExportedProgram eager = read(program_file(name), true);
      QCOMPARE(lazy.state_dict.size(), eager.state_dict.size());
      QCOMPARE(lazy.constants.size(), eager.constants.size());
      if (!lazy.state_dict.empty()) ++with_weights;
      uint64_t stored = 0;
      for (auto [list, eager_list] : {std::pair{&lazy.state_dict, &eager.state_dict}, std::pair{&lazy.constants, &eager.constants}}) {
        for (size_t i = 0; i < list->size(); ++i) {
          const auto& [key, p] = (*list)[i];
          const auto& [eager_key, e] = (*eager_list)[i];
          QCOMPARE(key, eager_key);
          QVERIFY2(!p.bytes && p.source, qPrintable(name + ": " + QString::fromStdString(key)));
          QVERIFY(e.bytes && !e.source);
          QCOMPARE(p.stored_size, uint64_t(e.bytes->size()));
          QCOMPARE(e.stored_size, uint64_t(e.bytes->size()));
          stored += p.stored_size;
        }
      }
      QCOMPARE(bytes_read(lazy), uint64_t(0));
      // Asking for the bytes reads them now: the same bytes, counted.
      uint64_t asked = 0;
      for (auto [list, eager_list] : {std::pair{&lazy.state_dict, &eager.state_dict}, std::pair{&lazy.constants, &eager.constants}}) {
        for (size_t i = 0; i < list->size(); ++i) {
          const auto bytes = (*list)[i].second.data();
          QVERIFY(bytes);
          QVERIFY(*bytes == *(*eager_list)[i].second.data());
          asked += bytes->size();
        }
      }
      QCOMPARE(asked, stored);
      if (stored) QCOMPARE(bytes_read(lazy), stored);
    }
    QVERIFY(with_weights >= 5);
  }

  void a_lazy_program_runs_as_an_eager_one() {
    for (const char* fixture : {"book_mlp", "small_cnn", "transformer_block"}) {
      const ir::ExportedProgram lazy = read(program_file(fixture), false);
      const ir::ExportedProgram eager = read(program_file(fixture), true);
      const runtime::RunReport a = run(lazy, fixture), b = run(eager, fixture);
      QVERIFY(bytes_read(lazy) > 0);
      QCOMPARE(a.outputs.size(), b.outputs.size());
      for (size_t i = 0; i < a.outputs.size(); ++i) {
        QCOMPARE(a.outputs[i].shape, b.outputs[i].shape);
        QCOMPARE(a.outputs[i].min, b.outputs[i].min);
        QCOMPARE(a.outputs[i].max, b.outputs[i].max);
        QCOMPARE(a.outputs[i].mean, b.outputs[i].mean);
      }
    }
  }

  void the_open_archive_outlives_its_file() {
    // The archive stays open: replacing or deleting the file after opening
    // does not change what the program's weights read.
    const QString copy = QDir::temp().filePath(QStringLiteral("exportlens_lazy_%1.pt2").arg(QCoreApplication::applicationPid()));
    QFile::remove(copy);
    QVERIFY(QFile::copy(fixture_file("book_mlp", "program.pt2"), copy));
    const ir::ExportedProgram lazy = read(copy.toStdString(), false);
    QVERIFY(QFile::remove(copy));
    const ir::ExportedProgram eager = read(program_file("book_mlp"), true);
    const runtime::RunReport a = run(lazy, "book_mlp"), b = run(eager, "book_mlp");
    QCOMPARE(a.outputs.front().mean, b.outputs.front().mean);
  }

  void stored_sizes_are_verified_without_reading() {
    // A weight whose view needs more bytes than its entry stores is refused
    // at open, as when the bytes are read.
    const QString dir = QDir::temp().filePath(QStringLiteral("exportlens_lazy_bad_%1").arg(QCoreApplication::applicationPid()));
    QDir(dir).removeRecursively();
    QVERIFY(QDir().mkpath(dir));
    const QString script = QStringLiteral(
        "import sys, zipfile, json\n"
        "src, dst = sys.argv[1], sys.argv[2]\n"
        "with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w') as zout:\n"
        "    for info in zin.infolist():\n"
        "        data = zin.read(info)\n"
        "        if info.filename.endswith('_weights_config.json'):\n"
        "            doc = json.loads(data)\n"
        "            meta = doc['config']['fc1.weight']['tensor_meta']\n"
        "            meta['sizes'][0] = {'as_int': 50}\n"
        "            data = json.dumps(doc).encode()\n"
        "        zout.writestr(info, data)\n"
        "# a zip bomb: the first weight's entry, 64 MiB of zeros deflated\n"
        "with zipfile.ZipFile(src) as zin, zipfile.ZipFile(sys.argv[3], 'w') as zout:\n"
        "    for info in zin.infolist():\n"
        "        data = zin.read(info)\n"
        "        if info.filename.endswith('data/weights/weight_0'):\n"
        "            info.compress_type = zipfile.ZIP_DEFLATED\n"
        "            data = bytes(64 << 20)\n"
        "        zout.writestr(info, data)\n");
    const QString bad = dir + "/wide_weight.pt2";
    const QString bomb = dir + "/bomb.pt2";
    QProcess python;
    python.start(QStringLiteral(EXPORTLENS_PYTHON), {"-c", script, fixture_file("book_mlp", "program.pt2"), bad, bomb});
    QVERIFY(python.waitForFinished(60000));
    QCOMPARE(python.exitCode(), 0);
    for (bool load : {false, true}) {
      try {
        read(bad.toStdString(), load);
        QFAIL("a weight wider than its bytes was accepted");
      } catch (const serde::Pt2Error& e) {
        QVERIFY2(QString(e.what()).contains("weight 'fc1.weight': its view needs"), e.what());
      }
      // A weight whose entry inflates too far is refused at open, read or not, with the same words.
      try {
        read(bomb.toStdString(), load);
        QFAIL("a zip bomb was accepted");
      } catch (const serde::Pt2Error& e) {
        QVERIFY2(QString(e.what()).contains("weight_0") && QString(e.what()).contains("ratio"), e.what());
      }
    }
    QDir(dir).removeRecursively();
  }
};

QTEST_GUILESS_MAIN(TestLazyWeights)
#include "test_lazy_weights.moc"

// The .pt2 writer against real torch: every program ExportLens holds — each
// oracle fixture as read, each lowered to the functional and the Core ATen IR
// (and with the seed's custom table), each gallery port traced from C++ — is
// saved, and torch.export.load (2.13) reads it back: print(ep) there equals
// `exportlens print` of the saved file (and, for a fixture, torch's own
// print.txt), ep.module()(*inputs) there equals torch's outputs (fixtures,
// lowered programs) or ExportLens' run (traced programs), ep.example_inputs
// holds the inputs, and the recorded guards survive. One Python process loads
// them all (tests/engine/load_saved.py).
// LibTorch headers come before Qt's: Qt's `slots` macro breaks them.
#include "support/torch_values.h"

#include "engine/ir/printer.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"
#include "engine/trace/gallery/gallery_models.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

struct Case {
  QString label;
  ir::ExportedProgram program;
  QString inputs;          // torch.save'd inputs (empty: run on ep.example_inputs)
  QString expected_print;  // torch's own print of the same program (fixtures as read)
  QString expected_outputs;  // torch's outputs on `inputs` (empty: compare with ExportLens' run)
};

std::vector<char> file_bytes(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  const QByteArray b = f.readAll();
  return {b.begin(), b.end()};
}

}  // namespace

class TestPt2Writer : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  std::vector<Case> cases_;
  std::map<QString, QJsonObject> results_;

  QString saved(const QString& label) const { return tmp_.filePath(label + ".pt2"); }
  QString torch_dir(const QString& label) const { return tmp_.filePath("torch/" + label); }
  const Case& find(const QString& label) const {
    for (const auto& c : cases_)
      if (c.label == label) return c;
    qFatal("no case %s", qPrintable(label));
  }

  void add_rows() {
    QTest::addColumn<QString>("label");
    for (const auto& c : cases_) QTest::newRow(qPrintable(c.label)) << c.label;
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    serde::ReadOptions with_weights;
    for (const auto& name : fixtures_with_status("ok")) {
      auto ep = serde::read_pt2(fixture_file(name, "program.pt2").toStdString(), "", with_weights);
      std::vector<Case> lowered_cases;
      for (auto [level, tag] : {std::pair{passes::IrLevel::Functional, "functional"}, {passes::IrLevel::Core, "core"}}) {
        // Lowering has its own suite; a program it cannot lower whole (as torch
        // cannot lower bad2_strict's mutated constant) is not this suite's subject.
        passes::LoweringReport report;
        std::optional<ir::ExportedProgram> lowered_or;
        try {
          lowered_or = passes::lower_to(ep, level, nullptr, &report);
        } catch (const passes::DecompositionError&) {
          continue;
        }
        if (!report.warnings.empty()) continue;
        auto lowered = std::move(*lowered_or);
        // Dropout in training mode draws new numbers on each run; its outputs are not comparable.
        const bool random = name.endsWith("_train");
        lowered_cases.push_back({name + "@" + tag, std::move(lowered), fixture_file(name, "inputs.pt"), QString(),
                                 random ? QString() : fixture_file(name, "outputs.pt")});
      }
      cases_.push_back({name, std::move(ep), fixture_file(name, "inputs.pt"), fixture_file(name, "print.txt"),
                        fixture_file(name, "outputs.pt")});
      for (auto& c : lowered_cases) cases_.push_back(std::move(c));
    }
    {
      const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2").toStdString(), "", with_weights);
      const auto table = passes::decomposition_table("double_conv2d");
      cases_.push_back({"decomp_example@double_conv2d", passes::lower_to(ep, passes::IrLevel::Core, &table),
                        fixture_file("decomp_example", "inputs.pt"), QString(),
                        fixture_file("decomp_example", "core_double_conv2d_outputs.pt")});
    }
    int traced = 0;
    for (const auto& m : trace::gallery_models()) {
      auto out = trace::trace_gallery_model(m.name);
      if (!out.program) continue;
      cases_.push_back({"gallery_" + QString::fromStdString(m.name), std::move(*out.program), QString(), QString(), QString()});
      ++traced;
    }
    QVERIFY2(traced >= 20, qPrintable(QString("only %1 gallery ports traced").arg(traced)));

    QJsonArray list;
    for (const auto& c : cases_) {
      try {
        serde::write_pt2(c.program, saved(c.label).toStdString(), runtime::pt2_write_options());
      } catch (const std::exception& e) {
        QFAIL(qPrintable(c.label + ": " + e.what()));
      }
      list.append(QJsonObject{{"pt2", saved(c.label)},
                              {"inputs", c.inputs.isEmpty() ? QJsonValue() : QJsonValue(c.inputs)},
                              {"out", torch_dir(c.label)}});
    }
    QFile f(tmp_.filePath("cases.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(list).toJson());
    f.close();
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(EXPORTLENS_PYTHON, {QString(EXPORTLENS_SOURCE_DIR) + "/tests/engine/load_saved.py", f.fileName()});
    QVERIFY2(p.waitForFinished(900000), "load_saved.py did not finish");
    QCOMPARE(p.exitCode(), 0);
    for (const auto& c : cases_) results_[c.label] = read_json(torch_dir(c.label) + "/result.json");
    qInfo("%d programs saved and loaded by torch", int(cases_.size()));
  }

  void torch_loads_data() { add_rows(); }
  void torch_loads() {
    QFETCH(QString, label);
    const auto r = results_.at(label);
    QVERIFY2(r["loaded"].toBool(), qPrintable(r["error"].toString()));
  }

  // print(ep) of torch's load equals `exportlens print` of the same file.
  void torch_print_equals_exportlens_print_data() { add_rows(); }
  void torch_print_equals_exportlens_print() {
    QFETCH(QString, label);
    QVERIFY(results_.at(label)["loaded"].toBool());
    const auto back = serde::read_pt2(saved(label).toStdString());
    QCOMPARE(QString::fromStdString(ir::print_program(back)), read_text(torch_dir(label) + "/print.txt"));
  }

  // A fixture saved again is the program torch exported: the same print(ep).
  void fixture_round_trip_prints_as_torch_data() {
    QTest::addColumn<QString>("label");
    for (const auto& c : cases_)
      if (!c.expected_print.isEmpty()) QTest::newRow(qPrintable(c.label)) << c.label;
  }
  void fixture_round_trip_prints_as_torch() {
    QFETCH(QString, label);
    QVERIFY(results_.at(label)["loaded"].toBool());
    QCOMPARE(read_text(torch_dir(label) + "/print.txt"), read_text(find(label).expected_print));
  }

  // ep.module()(*inputs) in torch on the saved file: torch's outputs for the
  // program as exported (or lowered by torch), ExportLens' run for traced ones.
  void torch_runs_saved_program_data() { add_rows(); }
  void torch_runs_saved_program() {
    QFETCH(QString, label);
    const Case& c = find(label);
    const auto r = results_.at(label);
    QVERIFY2(r["runs"].toBool(), qPrintable(r["run_error"].toString() + r["error"].toString()));
    const auto got = load_tuple(torch_dir(label) + "/outputs.pt");
    std::vector<c10::IValue> want;
    if (!c.expected_outputs.isEmpty()) {
      want = load_tuple(c.expected_outputs);
    } else if (label.endsWith("_train@functional") || label.endsWith("_train@core")) {
      QCOMPARE(int(got.size()), int(c.program.signature.user_outputs().size()));
      return;  // training dropout: the outputs' count is what can be compared
    } else {
      try {
        runtime::Interpreter interp(c.program, c10::Device(c10::kCPU));
        want = interp.run(load_tuple(c.inputs.isEmpty() ? torch_dir(label) + "/inputs_used.pt" : c.inputs));
      } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("ExportLens cannot run the program to compare with: ") + e.what()));
      }
    }
    QCOMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const auto err = compare_values(got[i], want[i]);
      QVERIFY2(err.isEmpty(), qPrintable("output " + QString::number(i) + ": " + err));
    }
  }

  void example_inputs_survive_data() { add_rows(); }
  void example_inputs_survive() {
    QFETCH(QString, label);
    const Case& c = find(label);
    const auto r = results_.at(label);
    QVERIFY(r["loaded"].toBool());
    if (c.program.example_inputs)
      QVERIFY2(r["example_inputs_weights_only"].toBool(), qPrintable(r["example_inputs_error"].toString()));
    if (c.inputs.isEmpty()) {
      QVERIFY2(r["runs"].toBool(), "a traced program's example inputs did not run in torch");  // it ran on them
    } else {
      QCOMPARE(r["example_inputs"].toString(), QString("matches"));
    }
  }

  // The guards the trace recorded (what re-solving a stricter spec replays).
  void guards_code_survives_data() { add_rows(); }
  void guards_code_survives() {
    QFETCH(QString, label);
    QStringList want;
    for (const auto& g : find(label).program.guards_code) want << QString::fromStdString(g);
    QStringList got;
    for (const auto& g : results_.at(label)["guards_code"].toArray()) got << g.toString();
    QCOMPARE(got, want);
  }

  // Reading the saved file and writing it again gives the same bytes: nothing
  // the writer writes is lost by the reader.
  void rewrite_is_byte_identical_data() { add_rows(); }
  void rewrite_is_byte_identical() {
    QFETCH(QString, label);
    const auto back = serde::read_pt2(saved(label).toStdString());
    QVERIFY(QDir().mkpath(tmp_.filePath("again")));
    const QString again = tmp_.filePath("again/" + label + ".pt2");  // the same name: the archive's folder is the stem
    serde::write_pt2(back, again.toStdString(), runtime::pt2_write_options());
    QVERIFY(file_bytes(again) == file_bytes(saved(label)));
  }

  void unwritable_programs_fail_naming_the_place_and_leave_no_file() {
    // An op neither this process nor the file describes.
    auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2").toStdString());
    for (ir::Node* n : ep.graph().nodes())
      if (n->op == ir::OpKind::CallFunction) {
        n->target = ir::Target("torch.ops.nowhere.made_up.default");
        break;
      }
    const QString path = tmp_.filePath("bad.pt2");
    try {
      serde::write_pt2(ep, path.toStdString(), runtime::pt2_write_options());
      QFAIL("an unknown op was written");
    } catch (const serde::Pt2WriteError& e) {
      QVERIFY2(QString(e.what()).contains("node 'linear'") && QString(e.what()).contains("nowhere::made_up"), e.what());
    }
    QVERIFY(!QFile::exists(path));
    // Weights that were never read.
    const auto no_weights = serde::read_pt2(fixture_file("book_mlp", "program.pt2").toStdString(), "",
                                            serde::ReadOptions{{}, false});
    try {
      serde::write_pt2(no_weights, path.toStdString(), runtime::pt2_write_options());
      QFAIL("a program without its weights was written");
    } catch (const serde::Pt2WriteError& e) {
      QVERIFY2(QString(e.what()).contains("weight 'fc1.weight'"), e.what());
    }
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + ".partial"));
  }
};

QTEST_GUILESS_MAIN(TestPt2Writer)
#include "test_pt2_writer.moc"

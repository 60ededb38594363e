// torch.export.AdditionalInputs against real torch (additional_inputs_cases.py):
// the spec inferred from more example input sets (which dims become
// Dim.DYNAMIC) equals AdditionalInputs.dynamic_shapes; `check FILE
// --additional-inputs` (re-solving the AUTO-exported program) and `example
// PORT --additional-inputs` (tracing the C++ port) give torch.export's
// outcome with those sets: ok with torch's range constraints and symbolic
// input shapes, or an error where torch's export or verify fails.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include "engine/runtime/additional_inputs.h"
#include "engine/serde/pt2_reader.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString cases_dir() { return fixtures_dir() + "/additional_inputs"; }

// The C++ gallery port of each case's model.
const QMap<QString, QString>& ports() {
  static const QMap<QString, QString> m = {
      {"book_mlp_batch", "book_mlp"},          {"book_mlp_rank", "book_mlp"},
      {"dynamic_model_all", "dynamic_model_static"}, {"dynamic_model_some", "dynamic_model_static"},
      {"example2_matmul", "dynamic_shapes_example2"}, {"example2_mismatch", "dynamic_shapes_example2"},
      {"derived_specialized", "derived_dim_example1"}, {"example1_size_one", "dynamic_shapes_example1"},
  };
  return m;
}

QStringList extra_files(const QString& name) {
  QStringList out;
  for (const auto& f : QDir(cases_dir() + "/" + name).entryList({"extra_*.pt"}, QDir::Files, QDir::Name))
    out << cases_dir() + "/" + name + "/" + f;
  return out;
}

QStringList additional_args(const QString& name) {
  QStringList args;
  for (const auto& f : extra_files(name)) args << "--additional-inputs" << f;
  return args;
}

QJsonObject torch_result(const QString& name) { return read_json(cases_dir() + "/" + name + "/torch.json"); }

// torch's placeholders, user inputs only (the program's parameters are not inputs).
QJsonObject user_placeholders(const QJsonObject& torch, const QJsonObject& ours) {
  QJsonObject out;
  for (auto it = ours.begin(); it != ours.end(); ++it) out[it.key()] = torch["placeholders"].toObject()[it.key()];
  return out;
}

void compare_outcome(const QString& name, const ProcessResult& r) {
  const auto torch = torch_result(name);
  if (torch["status"].toString() != "ok") {
    QVERIFY2(r.code != 0, qPrintable("torch refuses (" + torch["error_message"].toString().left(200) +
                                     ") but ExportLens accepted: " + r.out.left(400)));
    return;
  }
  QVERIFY2(r.code == 0, qPrintable(r.err + r.out.left(800)));
  const auto ours = QJsonDocument::fromJson(r.out.toUtf8()).object();
  QCOMPARE(ours["status"].toString(), QString("ok"));
  QCOMPARE(ours["range_constraints"].toObject(), torch["range_constraints"].toObject());
  const auto shapes = ours["input_shapes"].toObject();
  QCOMPARE(shapes, user_placeholders(torch, shapes));
}

}  // namespace

class TestAdditionalInputs : public QObject {
  Q_OBJECT

  void rows() {
    QTest::addColumn<QString>("name");
    const QJsonDocument manifest = QJsonDocument::fromJson([] {
      QFile f(cases_dir() + "/manifest.json");
      if (!f.open(QIODevice::ReadOnly)) qFatal("no AdditionalInputs cases at %s", qPrintable(cases_dir()));
      return f.readAll();
    }());
    for (const auto& v : manifest.array()) {
      const QString name = v.toObject()["name"].toString();
      if (!ports().contains(name)) qFatal("case %s has no gallery port listed", qPrintable(name));
      QTest::newRow(qPrintable(name)) << name;
    }
  }

 private slots:
  void inferred_spec_is_torchs_data() { rows(); }
  void inferred_spec_is_torchs() {
    QFETCH(QString, name);
    const auto ep = serde::read_pt2((cases_dir() + "/" + name + "/program.pt2").toStdString());
    std::vector<symbolic::ExampleSet> sets;
    for (const auto& f : extra_files(name))
      sets.push_back(runtime::file_examples(runtime::read_inputs_file(f.toStdString()), runtime::user_input_names(ep)));
    const auto torch = torch_result(name);
    if (torch["inferred"].isNull()) {
      QVERIFY_THROWS_EXCEPTION(symbolic::AdditionalInputsError,
                               symbolic::infer_dynamic_shapes(runtime::program_examples(ep), sets));
      return;
    }
    const auto spec = symbolic::infer_dynamic_shapes(runtime::program_examples(ep), sets);
    QJsonObject ours;
    for (const auto& [arg, shape] : spec.inputs) {
      QJsonArray dims;
      for (const auto& [i, d] : shape.dims)
        dims.append(d.kind == symbolic::DimSpec::Kind::Dynamic ? QJsonValue("DYNAMIC") : QJsonValue());
      ours[QString::fromStdString(arg)] = dims;
    }
    QCOMPARE(ours, torch["inferred"].toObject());
  }

  void check_matches_torch_export_data() { rows(); }
  void check_matches_torch_export() {
    QFETCH(QString, name);
    compare_outcome(name, run_exportlens(QStringList{"check", cases_dir() + "/" + name + "/program.pt2", "--json"} +
                                         additional_args(name)));
  }

  void example_trace_matches_torch_export_data() { rows(); }
  void example_trace_matches_torch_export() {
    QFETCH(QString, name);
    compare_outcome(name, run_exportlens(QStringList{"example", ports()[name], "--json"} + additional_args(name)));
  }

  void a_spec_and_additional_inputs_together_are_a_usage_error() {
    const auto r = run_exportlens({"check", cases_dir() + "/book_mlp_batch/program.pt2", "--spec",
                                   "dynamic_shapes = None", "--additional-inputs",
                                   cases_dir() + "/book_mlp_batch/extra_0.pt"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--additional-inputs infers the spec"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(TestAdditionalInputs)
#include "test_additional_inputs.moc"

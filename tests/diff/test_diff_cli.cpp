// `exportlens diff A B` headless, on the diff oracle's cases (diff_cases.py)
// and the old-torch fixtures: exit 0 for the same program, 1 when the
// programs differ, 2 on a usage error or an unreadable file (one line);
// --json's matches are the truth's pairs and its counts the truth's
// classification; --ir core diffs the lowered programs (what the inserted
// block lowers to is all that is added); --weights reports each weight's
// largest |b - a| as torch computes it, for raw (2.13) and pickled (2.5)
// weights alike.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "diff/diff_fixtures.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"

using exportlens::testing::fixture_file;
using exportlens::testing::run_exportlens;
using exportlens::testing::run_python;

namespace {

// diff_fixtures.h's cases in Qt's types.
QString diff_case_file(const QString& name, const QString& file) {
  return QString::fromStdString(exportlens::testing::diff_case_file(name.toStdString(), file.toStdString()));
}
QStringList diff_case_names() {
  return exportlens::testing::to_qt(exportlens::testing::or_stop([] { return exportlens::testing::diff_case_names(); }));
}
QJsonObject diff_truth(const QString& name) {
  return exportlens::testing::read_json(diff_case_file(name, QStringLiteral("truth.json")));
}
QSet<QString> pair_set(const QJsonArray& pairs) {
  QSet<QString> out;
  for (const std::string& p : exportlens::testing::pair_set(nlohmann::json::parse(QJsonDocument(pairs).toJson().toStdString())))
    out.insert(QString::fromStdString(p));
  return out;
}

QJsonObject diff_json(const QStringList& args, int expected_code) {
  const auto r = run_exportlens(QStringList{"diff"} + args + QStringList{"--json"});
  if (r.code != expected_code) qFatal("exit %d: %s", r.code, qPrintable(r.err));
  return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QString old_fixture(const QString& release, const QString& name) {
  return QStringLiteral(EXPORTLENS_SOURCE_DIR "/tests/fixtures/old_torch/") + release + "/" + name + "/program.pt2";
}

}  // namespace

class TestDiffCli : public QObject {
  Q_OBJECT

 private slots:
  void exit_codes() {
    const QString a = diff_case_file("llama_activation", "a.pt2"), b = diff_case_file("llama_activation", "b.pt2");
    auto r = run_exportlens({"diff", a, a});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("\nsame: "), qPrintable(r.out));
    r = run_exportlens({"diff", a, b});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("model.model.layers.3.mlp.act_fn: SiLUActivation → GELU; silu → gelu"), qPrintable(r.out));
    r = run_exportlens({"diff", a});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("diff takes two programs"));
    r = run_exportlens({"diff", a, b, "--ir", "nonsense"});
    QCOMPARE(r.code, 2);
    r = run_exportlens({"diff", a, "/no/such/file.pt2"});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.startsWith("exportlens diff: error: "));
  }

  // Other program sources work as every command's do: a built-in example, traced.
  void examples_as_sources() {
    const auto r = run_exportlens({"diff", "example:dynamic_model_v2_auto", "example:dynamic_model_v2_auto"});
    QCOMPARE(r.code, 0);
  }

  void json_is_the_truth_data() {
    QTest::addColumn<QString>("name");
    for (const QString& n : diff_case_names()) QTest::newRow(qPrintable(n)) << n;
  }
  void json_is_the_truth() {
    QFETCH(QString, name);
    const QJsonObject truth = diff_truth(name);
    const bool differ = !truth["added"].toArray().isEmpty() || !truth["removed"].toArray().isEmpty() ||
                        !truth["changed"].toArray().isEmpty();
    const QJsonObject j = diff_json({diff_case_file(name, "a.pt2"), diff_case_file(name, "b.pt2")}, differ ? 1 : 0);
    QSet<QString> matches;
    for (const auto& m : j["matches"].toArray()) matches.insert(m.toArray()[0].toString() + " -> " + m.toArray()[1].toString());
    QCOMPARE(matches, pair_set(truth["pairs"].toArray()));
    QCOMPARE(j["counts"]["added"].toInt(), truth["added"].toArray().size());
    QCOMPARE(j["counts"]["removed"].toInt(), truth["removed"].toArray().size());
    QCOMPARE(j["counts"]["changed"].toInt(), truth["changed"].toArray().size());
    QCOMPARE(j["same"].toBool(), !differ);
  }

  // Lowered to Core ATen, the inserted adapter's ops are what is added, and nothing else changes.
  void core_ir() {
    const QString name = "stack_adapter_inserted";
    const QJsonObject j = diff_json({diff_case_file(name, "a.pt2"), diff_case_file(name, "b.pt2"), "--ir", "core"}, 1);
    QCOMPARE(j["counts"]["removed"].toInt(), 0);
    QCOMPARE(j["counts"]["changed"].toInt(), 0);
    int ops = 0;
    for (const auto& n : j["nodes"].toArray()) {
      const auto o = n.toObject();
      QCOMPARE(o["status"].toString(), QStringLiteral("added"));
      if (o["module"].toString().isEmpty()) continue;  // the adapter's weights, graph inputs
      QVERIFY2(o["module"].toString().startsWith("blocks.3"), qPrintable(o["module"].toString()));
      ++ops;
    }
    QVERIFY(ops >= 4);  // two linears (addmm and its views, at Core ATen), relu, add
  }

  // --weights: each weight's largest |b - a|, as torch computes it; with values differing, the programs differ.
  void weight_values() {
    const QString name = "weights_perturbed";
    const QString a = diff_case_file(name, "a.pt2"), b = diff_case_file(name, "b.pt2");
    QCOMPARE(run_exportlens({"diff", a, b}).code, 0);
    const QJsonObject j = diff_json({a, b, "--weights"}, 1);
    const QJsonObject truth = diff_truth(name)["weight_max_abs_diff"].toObject();
    int compared = 0;
    for (const auto& w : j["weights"].toArray()) {
      const auto o = w.toObject();
      const QString key = o["a"].toString();
      QVERIFY2(truth.contains(key), qPrintable(key));
      QCOMPARE(o["max_abs_diff"].toDouble(), truth[key].toDouble());
      QCOMPARE(o["status"].toString(), truth[key].toDouble() == 0 ? QStringLiteral("same") : QStringLiteral("changed"));
      ++compared;
    }
    QCOMPARE(compared, truth.size());
  }

  // torch 2.5 stored the weights pickled: they are compared by value as 2.13's raw ones are (against
  // torch's own values: the 2.5 archive's pickled dict and torch.export.load of the 2.13 file).
  void pickled_weight_values() {
    const QString a = old_fixture("2.5", "book_mlp"), b = fixture_file("book_mlp", "program.pt2");
    const auto torch = run_python(
        "import io, sys, torch, zipfile\n"
        "# torch 2.13 cannot load a 2.5 archive: its weights are the torch.save'd dict inside\n"
        "a = torch.load(io.BytesIO(zipfile.ZipFile(sys.argv[1]).read('serialized_state_dict.pt')), weights_only=True)\n"
        "b = torch.export.load(sys.argv[2]).state_dict\n"
        "print(max(float((b[k].detach().double() - v.double()).abs().max()) for k, v in a.items()))\n",
        {a, b});
    QCOMPARE(torch.code, 0);
    const double expected = torch.out.trimmed().toDouble();
    const QJsonObject j = diff_json({a, b, "--weights"}, expected == 0 ? 0 : 1);
    double worst = 0;
    for (const auto& w : j["weights"].toArray()) {
      QVERIFY2(w.toObject()["note"].toString().isEmpty(), qPrintable(w.toObject()["note"].toString()));
      worst = std::max(worst, w.toObject()["max_abs_diff"].toDouble());
    }
    QCOMPARE(j["weights"].toArray().size(), 4);
    QCOMPARE(worst, expected);
  }
};

QTEST_GUILESS_MAIN(TestDiffCli)
#include "test_diff_cli.moc"

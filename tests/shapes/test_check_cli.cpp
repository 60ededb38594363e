// `exportlens check` headless: the outcome text, --json's fields, -v's guard
// log, @file specs, and the exit codes (0 ok, 1 violation, 2 error).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens::testing;

namespace {

ProcessResult check(const QStringList& args) { return run_exportlens(QStringList{"check"} + args); }

QString cases() { return fixtures_dir() + "/check_cases"; }
QJsonObject meta(const QString& name) { return read_json(cases() + "/" + name + "/meta.json"); }
QString program(const QString& name) { return cases() + "/" + meta(name)["program"].toString(); }
QString spec(const QString& name) { return meta(name)["spec"].toString(); }

}  // namespace

class TestCheckCli : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  void ok_prints_shapes_and_ranges() {
    const auto r = check({program("dynamic_model_auto"), "--spec", spec("dynamic_model_auto")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("status: ok"));
    QVERIFY(r.out.contains("Range constraints: {"));
    QVERIFY(r.out.contains("  w: [s15, 5]"));
  }

  void violation_prints_torch_message_and_fixes() {
    const auto r = check({program("foo_dx_dy_d1"), "--spec", spec("foo_dx_dy_d1")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.contains(meta("foo_dx_dy_d1")["message"].toString().split('\n').first()));
    QVERIFY(r.out.contains("Suggested fixes:\n  d1 = 4\n  dy = dx"));
  }

  void json_has_the_fields() {
    const auto r = check({program("example3_unfixed"), "--spec", spec("example3_unfixed"), "--json"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j["status"].toString(), QStringLiteral("violation"));
    for (const char* key : {"range_constraints", "input_shapes", "guards", "violations", "suggested_fixes"})
      QVERIFY2(j.contains(key), key);
    QStringList fixes;
    for (const auto& v : meta("example3_unfixed")["suggested_fixes"].toArray()) fixes << v.toString();
    QCOMPARE(j["suggested_fixes"].toString(), fixes.join('\n') + "\n");
    QCOMPARE(j["violations"].toArray().size(), meta("example3_unfixed")["violations"].toArray().size());
    const QJsonObject first_guard = j["guards"].toArray().first().toObject();
    QVERIFY(first_guard.contains("origin"));

    const auto ok = check({program("named_dims_4dx"), "--spec", spec("named_dims_4dx"), "--json"});
    QCOMPARE(ok.code, 0);
    const QJsonObject rc = QJsonDocument::fromJson(ok.out.toUtf8()).object()["range_constraints"].toObject();
    QCOMPARE(rc["s95"].toArray(), (QJsonArray{4, 512}));
    const auto inf = check({program("dynamic_model_auto"), "--spec", spec("dynamic_model_auto"), "--json"});
    const QJsonObject rc2 = QJsonDocument::fromJson(inf.out.toUtf8()).object()["range_constraints"].toObject();
    QCOMPARE(rc2["s77"].toArray(), (QJsonArray{2, "int_oo"}));
  }

  void verbose_adds_the_guard_log() {
    const auto r = check({program("dynamic_model_auto"), "--spec", spec("dynamic_model_auto"), "-v"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("create_symbol s15 = 6 for L['w'].size()[0] [2, int_oo]"));
    QVERIFY(r.out.contains("[guard added] node add (aten.add.Tensor, broadcast)"));
  }

  void spec_from_a_file() {
    const QString path = tmp_.filePath("spec.py");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(spec("derived2").toUtf8());
    f.close();
    const auto r = check({program("derived2"), "--spec", "@" + path});
    QCOMPARE(r.code, 0);
  }

  void spec_as_json() {
    const auto r = check({program("foo_dx_dy_d1"), "--spec", spec("foo_dx_dy_d1"), "--json"});
    const QJsonObject spec_json = QJsonDocument::fromJson(r.out.toUtf8()).object()["spec_json"].toObject();
    const auto again = check({program("foo_dx_dy_d1"), "--spec-json", QJsonDocument(spec_json).toJson(), "--json"});
    QCOMPARE(again.code, 1);
    QCOMPARE(QJsonDocument::fromJson(again.out.toUtf8()).object()["suggested_fixes"].toString(),
             QStringLiteral("d1 = 4\ndy = dx\n"));
  }

  // Tuple / list / dict / dataclass inputs: a nested spec as --spec text and
  // as --spec-json (the JSON --json prints, nested as the spec is) gives
  // torch's outcome; a spec that does not mirror the input exits 2 with
  // torch's one-line refusal naming the path.
  void nested_specs() {
    for (const char* name : {"nested_dict_fresh", "nested_dataclass_fresh", "nested_tuple_unshared"}) {
      const auto r = check({program(name), "--spec", spec(name), "--json"});
      QCOMPARE(r.code, 1);
      const QJsonObject out = QJsonDocument::fromJson(r.out.toUtf8()).object();
      QCOMPARE(out["message"].toString().trimmed(), meta(name)["message"].toString().trimmed());
      const QJsonObject spec_json = out["spec_json"].toObject();
      QVERIFY2(QJsonDocument(spec_json).toJson().contains("\"items\""), name);
      const auto again = check({program(name), "--spec-json", QJsonDocument(spec_json).toJson(), "--json"});
      QCOMPARE(again.code, 1);
      QCOMPARE(QJsonDocument::fromJson(again.out.toUtf8()).object()["message"].toString().trimmed(),
               meta(name)["message"].toString().trimmed());
    }
    const auto ok = check({program("nested_dict_shared"), "--spec", spec("nested_dict_shared")});
    QCOMPARE(ok.code, 0);
    QVERIFY2(ok.out.contains("ys['b'][0]"), qPrintable(ok.out));
    const auto bad = check({program("nested_bad_key"), "--spec", spec("nested_bad_key")});
    QCOMPARE(bad.code, 2);
    const QString theirs = meta("nested_bad_key")["message"].toString().section("\n", 0, 0).trimmed();
    QVERIFY2(bad.err.contains(theirs), qPrintable(bad.err + "\ntorch: " + theirs));
    QCOMPARE(bad.err.trimmed().count('\n'), 0);  // one line
  }

  void errors_exit_2() {
    const auto bad = check({program("foo_dx_dy_d1"), "--spec", "dynamic_shapes = {\"x\": (dx, None)}"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("line 1, column 25: name 'dx' is not defined"));
    QCOMPARE(check({cases() + "/no_such_file.pt2", "--spec", "None"}).code, 2);
    QCOMPARE(check({program("foo_dx_dy_d1"), "--spec", "@/no/such/spec.py"}).code, 2);
    QCOMPARE(check({program("foo_dx_dy_d1"), "--nonsense"}).code, 2);
  }
};

QTEST_GUILESS_MAIN(TestCheckCli)
#include "test_check_cli.moc"

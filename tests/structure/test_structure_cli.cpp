// `exportlens info FILE.pt2 --structure [--ir core]` headless, on the programs
// real torch exported (oracle/structure_models.py): every stack the model is
// built from at the root is one folded line "N × Class (first … last)" ("(a, b)"
// for two), named
// with the class torch recorded; each planted odd instance is one "!" line;
// usage errors exit 2, a missing file 1 with one line.
#include <QtTest>

#include <algorithm>

#include "structure/structure_fixtures.h"
#include "support/exportlens_process.h"

using exportlens::testing::run_exportlens;

namespace {

// structure_fixtures.h's programs in Qt's types.
QString structure_fixture(const QString& name, const QString& file) {
  return QString::fromStdString(exportlens::testing::structure_fixture(name.toStdString(), file.toStdString()));
}
QStringList structure_fixture_names() {
  return exportlens::testing::to_qt(
      exportlens::testing::or_stop([] { return exportlens::testing::structure_fixture_names(); }));
}
QJsonObject structure_record(const QString& name) {
  return exportlens::testing::read_json(structure_fixture(name, QStringLiteral("structure.json")));
}

QString class_of(const QJsonObject& record, const QString& path) {
  for (const auto& c : record["levels"]["training"]["calls"].toArray())
    if (c.toObject()["path"].toString() == path) return c.toObject()["class"].toString();
  qFatal("torch recorded no module call %s", qPrintable(path));
}

}  // namespace

class TestStructureCli : public QObject {
  Q_OBJECT

 private slots:
  void folds_the_models_stacks_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("level");
    for (const QString& n : structure_fixture_names())
      for (const char* level : {"training", "core"}) QTest::newRow(qPrintable(n + "/" + level)) << n << QString(level);
  }
  void folds_the_models_stacks() {
    QFETCH(QString, name);
    QFETCH(QString, level);
    const auto record = structure_record(name);
    const auto r = run_exportlens({"info", structure_fixture(name, "program.pt2"), "--structure", "--ir", level});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // The root's stacks, every stack of groups and every stack outside another on a line of their own: the
    // count and the names relative to the parent, the root's with torch's class (the stacks inside a group
    // are printed for the group shown).
    const QStringList lines = r.out.split('\n');
    QMap<QString, QString> parent_of;  // planted path -> the parent of its stack
    int stacks = 0;
    for (const auto& s : record["expected_stacks"].toArray()) {
      const auto stack = s.toObject();
      const QString parent = stack["parent"].toString();
      auto rel = [&](const QString& path) { return parent.isEmpty() ? path : path.mid(parent.size() + 1); };
      const auto instances = stack["instances"].toArray();
      // A run inside an instance of another run is printed only for the instance shown.
      const bool in_a_run = parent_of.contains(instances.first().toArray().first().toString());
      for (const auto& i : instances)
        for (const auto& p : i.toArray()) parent_of[p.toString()] = parent;
      const QString first = rel(instances.first().toArray().first().toString()),
                    last = rel(instances.last().toArray().last().toString());
      const QString names = QString(" (%1)  ").arg(instances.size() * instances[0].toArray().size() == 2 ? first + ", " + last
                                                                                                     : first + " … " + last);
      if (parent.isEmpty()) {
        QCOMPARE(instances[0].toArray().size(), 1);  // the models' root stacks are plain runs
        const QString line = QString("\n  %1 × %2").arg(instances.size()).arg(class_of(record, first)) + names;
        QVERIFY2(r.out.contains(line), qPrintable(line + " not in:\n" + r.out));
        ++stacks;
      } else if (instances[0].toArray().size() > 1 || !in_a_run) {
        const QString count = QString("%1 × ").arg(instances.size());
        QVERIFY2(std::any_of(lines.begin(), lines.end(), [&](const QString& l) {
                   return l.trimmed().startsWith(count) && l.contains(names);
                 }),
                 qPrintable(count + names + " not in:\n" + r.out));
        ++stacks;
      }
    }
    QVERIFY(stacks > 0);
    // One `!` line per planted instance, named relative to its stack's parent.
    const auto planted = record["planted"].toObject();
    QCOMPARE(int(std::count_if(lines.begin(), lines.end(), [](const QString& l) { return l.trimmed().startsWith("! "); })),
             planted.size());
    for (const QString& path : planted.keys()) {
      const QString parent = parent_of.value(path);
      const QString rel = parent.isEmpty() ? path : path.mid(parent.size() + 1);
      QVERIFY2(r.out.contains(" ! " + rel + " differs from "), qPrintable(path + " in:\n" + r.out));
    }
  }

  void names_the_planted_differences() {
    const auto r = run_exportlens({"info", structure_fixture("odd_blocks", "program.pt2"), "--structure"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // The flag's line names the first difference; the next line, every one.
    const QStringList lines = r.out.split('\n');
    auto flag_of = [&](const QString& path) {
      for (const QString& l : lines)
        if (l.trimmed().startsWith("! " + path + " ")) return l;
      return QString();
    };
    auto line_of = [&](const QString& path) {
      const int at = int(lines.indexOf(flag_of(path)));
      return at >= 0 && at + 1 < lines.size() ? lines[at] + "\n" + lines[at + 1] : flag_of(path);
    };
    QVERIFY2(flag_of("blocks.1").contains(": submodules: act ReLU instead of GELU (also ops"), qPrintable(r.out));
    QVERIFY2(flag_of("blocks.5").contains(": ops: +aten.mul.Tensor"), qPrintable(r.out));
    QVERIFY2(line_of("blocks.1").contains("act ReLU instead of GELU"), qPrintable(r.out));
    QVERIFY2(line_of("blocks.1").contains("+aten.relu.default") && line_of("blocks.1").contains("-aten.gelu.default"),
             qPrintable(r.out));
    QVERIFY2(line_of("blocks.3").contains("fc1.weight f32[32, 16] instead of f32[64, 16]"), qPrintable(r.out));
    QVERIFY2(line_of("blocks.5").contains("ops: +aten.mul.Tensor"), qPrintable(r.out));
    QVERIFY2(line_of("blocks.6").contains("guards: Eq("), qPrintable(r.out));
    QVERIFY2(line_of("blocks.6").contains("pos f32[6, 16] instead of f32[1, 16]"), qPrintable(r.out));
  }

  // Stages each built otherwise: under the stack's line, one `settings:` line with the model's table.
  void names_the_settings_of_varied_stages() {
    const auto settings = structure_record("varied_stages")["settings"].toObject()["stages"].toObject();
    for (const char* level : {"training", "core"}) {
      const auto r = run_exportlens({"info", structure_fixture("varied_stages", "program.pt2"), "--structure", "--ir", level});
      QVERIFY2(r.code == 0, qPrintable(r.err));
      const QStringList lines = r.out.split('\n');
      const auto at = std::find_if(lines.begin(), lines.end(), [](const QString& l) { return l.trimmed().startsWith("3 × VariedStage ("); });
      QVERIFY2(at != lines.end() && at + 1 != lines.end(), qPrintable(r.out));
      QStringList widths, depths, with;
      for (const auto& w : settings["width"].toArray()) widths << w.toString();
      for (const auto& d : settings["depth"].toArray()) depths << d.toString();
      const auto downsample = settings["downsample"].toArray();
      for (int i = 0; i < downsample.size(); ++i)
        if (!downsample[i].toString().isEmpty()) with << QString::number(i);
      const QString want = QString("settings: width %1, depth %2 ConvBlock, downsample Downsample in %3")
                               .arg(widths.join(QChar(0xB7)), depths.join(QChar(0xB7)), with.join(", "));
      QCOMPARE((at + 1)->trimmed(), want);
      QVERIFY2(!r.out.contains(" ! "), qPrintable(r.out));
    }
  }

  void bad_use_is_reported() {
    const QString file = structure_fixture("transformer_stack", "program.pt2");
    auto r = run_exportlens({"info", file, "--time"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--time applies to info --structure"), qPrintable(r.err));
    r = run_exportlens({"info", "--structure"});
    QCOMPARE(r.code, 2);
    r = run_exportlens({"info", file, "--structure", "--ir", "nonsense"});
    QCOMPARE(r.code, 2);
    r = run_exportlens({"info", file + ".missing", "--structure"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(r.out.isEmpty());
  }

  void time_runs_the_program() {
    const auto r = run_exportlens({"info", structure_fixture("transformer_stack", "program.pt2"), "--structure", "--time"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith("timed: one run on random inputs"), qPrintable(r.out));
    QVERIFY2(r.out.contains("\n  6 × Block (blocks.0 … blocks.5)  "), qPrintable(r.out));
  }
};

QTEST_GUILESS_MAIN(TestStructureCli)
#include "test_structure_cli.moc"

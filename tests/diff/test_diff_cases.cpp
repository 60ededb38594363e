// The diff against planted edits real torch exported (diff/diff_cases.py):
// one layer's activation changed, a block inserted into a stack (of its
// class and of another), every MLP widened, branches computed in the other
// order, a program quantized into q/dq pairs, strict against non-strict.
// For each, the matching is measured against the truth the case knows from
// how it was built (how many of its pairs are found, how many found pairs
// are wrong), and the classification must be the truth's: the added and
// removed nodes exactly, and the changed pairs exactly those whose op,
// dtype or shape differ in torch's own graphs.
#include <QtTest>

#include "diff/diff_fixtures.h"
#include "engine/diff/diff_report.h"
#include "engine/passes/ir_levels.h"
#include "engine/passes/provenance.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

struct Measured {
  int truth = 0, found = 0, wrong = 0;
};

Measured measure(const ProgramPair& p, const diff::ProgramDiff& d, const QJsonObject& truth) {
  const QSet<QString> expected = pair_set(truth["pairs"].toArray());
  Measured m;
  m.truth = expected.size();
  for (const auto& [x, y] : d.matching.pairs()) {
    if (expected.contains(p.name_a(x) + " -> " + p.name_b(y))) ++m.found;
    else ++m.wrong;
  }
  return m;
}

}  // namespace

class TestDiffCases : public QObject {
  Q_OBJECT

 private slots:
  void matching_finds_the_truth_data() {
    QTest::addColumn<QString>("name");
    for (const QString& n : diff_case_names()) QTest::newRow(qPrintable(n)) << n;
  }
  void matching_finds_the_truth() {
    QFETCH(QString, name);
    const auto p = read_diff_case(name);
    const QJsonObject truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    const Measured m = measure(*p, d, truth);
    qInfo("%s: %d of %d true pairs found, %d found pairs wrong (%s)", qPrintable(name), m.found, m.truth, m.wrong,
          qPrintable(truth["description"].toString()));
    QCOMPARE(m.found, m.truth);
    QCOMPARE(m.wrong, 0);
  }

  void classification_is_the_truths_data() { matching_finds_the_truth_data(); }
  void classification_is_the_truths() {
    QFETCH(QString, name);
    const auto p = read_diff_case(name);
    const QJsonObject truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    QSet<QString> added, removed, changed;
    for (const diff::NodeDiff& n : d.nodes) {
      if (n.status == diff::Status::Added) added.insert(p->name_b(n.b));
      if (n.status == diff::Status::Removed) removed.insert(p->name_a(n.a));
      if (n.status == diff::Status::Changed) changed.insert(p->name_a(n.a) + " -> " + p->name_b(n.b));
    }
    QCOMPARE(added, name_set(truth["added"].toArray()));
    QCOMPARE(removed, name_set(truth["removed"].toArray()));
    QCOMPARE(changed, pair_set(truth["changed"].toArray()));
    const bool truth_same =
        truth["added"].toArray().isEmpty() && truth["removed"].toArray().isEmpty() && truth["changed"].toArray().isEmpty();
    QCOMPARE(d.same(), truth_same);
  }

  // A program and its own Core ATen lowering, said to be related (what numerics compares across IR
  // levels): each pair's B node descends from its A node by the lowering's provenance, and every op of A
  // that some node of B descends from is paired.
  void lowering_matches_by_provenance_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"llama_activation", "stack_adapter_inserted", "quantized"}) QTest::newRow(n) << QString(n);
  }
  void lowering_matches_by_provenance() {
    QFETCH(QString, name);
    const ir::ExportedProgram a = read_program(diff_case_file(name, "a.pt2"));
    const ir::ExportedProgram b = passes::lower_to(a, passes::IrLevel::Core);
    const matching::IndexedProgram ia(a), ib(b);
    matching::MatchOptions options;
    options.related = true;
    const matching::ProgramMatching m = matching::match_programs(ia, ib, options);
    QCOMPARE(m.derivation, matching::Derivation::BFromA);
    // An element of a multi-output op the lowering replaced (split -> split_with_sizes) descends from
    // the op: it pairs with A's getitem of that op at the same index.
    auto same_element = [](const ir::Node& na, const ir::Node& nb, const std::string& origin) {
      if (!na.target.is_getitem() || !nb.target.is_getitem() || na.args().size() < 2 || nb.args().size() < 2) return false;
      const ir::Node* tuple = na.args()[0].node();
      const auto* ia_index = std::get_if<int64_t>(&na.args()[1].v);
      const auto* ib_index = std::get_if<int64_t>(&nb.args()[1].v);
      return tuple && tuple->name == origin && ia_index && ib_index && *ia_index == *ib_index;
    };
    for (const auto& [x, y] : m.pairs()) {
      const ir::Node& nb = *ib.nodes()[size_t(y)];
      const std::string origin = nb.meta.provenance.empty() ? nb.name : passes::exported_origin(nb).node;
      QVERIFY2(origin == ia.nodes()[size_t(x)]->name || same_element(*ia.nodes()[size_t(x)], nb, origin),
               qPrintable(QString::fromStdString(nb.name + " from " + origin + ", paired with A's " + ia.nodes()[size_t(x)]->name +
                                                 " by " + std::string(matching::reason_name(m.a_to_b[size_t(x)].reason)))));
    }
    int ops = 0;
    for (size_t x = 0; x < ia.size(); ++x) {
      const ir::Node& na = *ia.nodes()[x];
      if (na.op != ir::OpKind::CallFunction || passes::descendants(b, na.name).empty()) continue;
      QVERIFY2(m.a_to_b[x].matched(), qPrintable(QString::fromStdString(na.name)));
      QVERIFY(m.a_to_b[x].reason == matching::MatchReason::Name || m.a_to_b[x].reason == matching::MatchReason::Provenance);
      ++ops;
    }
    QVERIFY(ops > 0);
  }

  // The module lines name what the edit touched, and nothing else.
  void summary_names_the_edited_modules_data() { matching_finds_the_truth_data(); }
  void summary_names_the_edited_modules() {
    QFETCH(QString, name);
    const auto p = read_diff_case(name);
    const QJsonObject truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    const QStringList edited = [&] {
      QStringList out;
      for (const auto& e : truth["edited_modules"].toArray()) out << e.toString();
      return out;
    }();
    const QString text = QString::fromStdString(diff::format_diff(*p->ia, *p->ib, d));
    for (const QString& path : edited) QVERIFY2(text.contains(path), qPrintable(path + " not in\n" + text));
  }
};

QTEST_GUILESS_MAIN(TestDiffCases)
#include "test_diff_cases.moc"

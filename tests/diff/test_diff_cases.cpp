// The diff against planted edits real torch exported (diff/diff_cases.py):
// one layer's activation changed, a block inserted into a stack (of its
// class and of another), every MLP widened, branches computed in the other
// order, a program quantized into q/dq pairs, strict against non-strict.
// For each, the matching is measured against the truth the case knows from
// how it was built (how many of its pairs are found, how many found pairs
// are wrong), and the classification must be the truth's: the added and
// removed nodes exactly, and the changed pairs exactly those whose op,
// dtype or shape differ in torch's own graphs.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "diff/diff_fixtures.h"
#include "engine/diff/diff_report.h"
#include "engine/passes/ir_levels.h"
#include "engine/passes/provenance.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;

namespace {

struct Measured {
  int truth = 0, found = 0, wrong = 0;
};

Measured measure(const ProgramPair& p, const diff::ProgramDiff& d, const nlohmann::json& truth) {
  const std::set<std::string> expected = pair_set(truth.at("pairs"));
  Measured m;
  m.truth = int(expected.size());
  for (const auto& [x, y] : d.matching.pairs()) {
    if (expected.contains(p.name_a(x) + " -> " + p.name_b(y))) ++m.found;
    else ++m.wrong;
  }
  return m;
}

}  // namespace

EL_TEST(matching_finds_the_truth) {
  for_each_row(diff_case_names(), [](const std::string& name) {
    const auto p = read_diff_case(name);
    const nlohmann::json truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    const Measured m = measure(*p, d, truth);
    std::printf("INFO   : %s: %d of %d true pairs found, %d found pairs wrong (%s)\n", name.c_str(), m.found, m.truth,
                m.wrong, truth.value("description", std::string()).c_str());
    COMPARE(m.found, m.truth);
    COMPARE(m.wrong, 0);
  });
}

EL_TEST(classification_is_the_truths) {
  for_each_row(diff_case_names(), [](const std::string& name) {
    const auto p = read_diff_case(name);
    const nlohmann::json truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    std::set<std::string> added, removed, changed;
    for (const diff::NodeDiff& n : d.nodes) {
      if (n.status == diff::Status::Added) added.insert(p->name_b(n.b));
      if (n.status == diff::Status::Removed) removed.insert(p->name_a(n.a));
      if (n.status == diff::Status::Changed) changed.insert(p->name_a(n.a) + " -> " + p->name_b(n.b));
    }
    COMPARE(added, name_set(truth.at("added")));
    COMPARE(removed, name_set(truth.at("removed")));
    COMPARE(changed, pair_set(truth.at("changed")));
    const bool truth_same = truth.at("added").empty() && truth.at("removed").empty() && truth.at("changed").empty();
    COMPARE(d.same(), truth_same);
  });
}

// A program and its own Core ATen lowering, said to be related (what numerics compares across IR
// levels): each pair's B node descends from its A node by the lowering's provenance, and every op of A
// that some node of B descends from is paired.
EL_TEST(lowering_matches_by_provenance) {
  const std::vector<std::string> rows = {"llama_activation", "stack_adapter_inserted", "quantized"};
  for_each_row(rows, [](const std::string& name) {
    const ir::ExportedProgram a = read_program(diff_case_file(name, "a.pt2"));
    const ir::ExportedProgram b = passes::lower_to(a, passes::IrLevel::Core);
    const matching::IndexedProgram ia(a), ib(b);
    matching::MatchOptions options;
    options.related = true;
    const matching::ProgramMatching m = matching::match_programs(ia, ib, options);
    COMPARE(m.derivation, matching::Derivation::BFromA);
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
      VERIFY_MSG(origin == ia.nodes()[size_t(x)]->name || same_element(*ia.nodes()[size_t(x)], nb, origin),
                 nb.name + " from " + origin + ", paired with A's " + ia.nodes()[size_t(x)]->name + " by " +
                     std::string(matching::reason_name(m.a_to_b[size_t(x)].reason)));
    }
    int ops = 0;
    for (size_t x = 0; x < ia.size(); ++x) {
      const ir::Node& na = *ia.nodes()[x];
      if (na.op != ir::OpKind::CallFunction || passes::descendants(b, na.name).empty()) continue;
      VERIFY_MSG(m.a_to_b[x].matched(), na.name);
      VERIFY(m.a_to_b[x].reason == matching::MatchReason::Name || m.a_to_b[x].reason == matching::MatchReason::Provenance);
      ++ops;
    }
    VERIFY(ops > 0);
  });
}

// The module lines name what the edit touched, and nothing else.
EL_TEST(summary_names_the_edited_modules) {
  for_each_row(diff_case_names(), [](const std::string& name) {
    const auto p = read_diff_case(name);
    const nlohmann::json truth = diff_truth(name);
    const diff::ProgramDiff d = diff::diff_programs(*p->ia, *p->ib);
    const std::vector<std::string> edited = [&] {
      std::vector<std::string> out;
      for (const auto& e : truth.at("edited_modules")) out.push_back(e.get<std::string>());
      return out;
    }();
    const std::string text = diff::format_diff(*p->ia, *p->ib, d);
    for (const std::string& path : edited) VERIFY_MSG(contains(text, path), path + " not in\n" + text);
  });
}

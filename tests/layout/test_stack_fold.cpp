// A folded run of sibling scopes in the scoped layout (stack_fold.h), on the
// transformer torch exported (oracle/browse_models.py): its blocks folded
// into one, only the member shown is drawn (a box, or opened its frame with
// its own nodes), every dependency entering or leaving the run is bundled
// onto it and none between its members is drawn; the level holding the run
// is laid out anew when the member shown changes, and nothing else is.
// A run whose instance is several calls no module groups (each stage of
// oracle/structure_models.py's grouped_stages calls 3 × [2 × ConvBlock,
// Mixer]), as torch exported it and lowered to Core ATen: one box for all
// of it, or opened the calls of the instance shown, the 2 × ConvBlock inside
// it folded again, no dependency between two instances drawn.
// On odd_group (that stage once, one group's Mixer planted odd) the stack of
// groups flags exactly the planted call and names torch's op difference.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"
#include "engine/layout/scoped_layout.h"
#include "engine/layout/stack_fold.h"
#include "engine/serde/pt2_reader.h"
#include "engine/passes/ir_levels.h"
#include "engine/structure/repeated_structure.h"
#include "engine/structure/structure_facts.h"
#include "structure/structure_fixtures.h"
#include "support/browse_fixtures.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using exportlens::testing::browse_fixture;
using layout::DrawnItem;
using layout::ScopedLayout;
using layout::ScopeExpansion;

// The suite was two QtTest classes run one after the other (TestStackFold, then
// TestGroupedStackFold); their test functions run here in the same order.

namespace {

// ---- TestStackFold: the transformer's blocks ----------------------------------------

// What the QtTest suite's initTestCase read: the transformer, its hierarchy,
// the nodes shown (weights folded) and its top-level blocks.
struct Transformer {
  ir::ExportedProgram ep_;
  ir::ModuleHierarchy h_;
  std::vector<bool> shown_;
  std::vector<int> blocks_;  // the top-level blocks.0, blocks.1, ...

  bool in_run(int node) const {
    const int s = h_.scope_of[static_cast<size_t>(node)];
    return std::any_of(blocks_.begin(), blocks_.end(), [&](int b) { return h_.encloses(b, s); });
  }
  bool in(int scope, int node) const { return h_.encloses(scope, h_.scope_of[static_cast<size_t>(node)]); }

  // Every shown dependency touching the run: drawn onto `shown` (or a part of it), never between members.
  void check_edges(const ScopedLayout& l, int shown) const {
    std::set<std::pair<int, int>> drawn;
    for (const auto& e : l.edges)
      for (const auto& m : e.members) {
        drawn.insert(m);
        if (in_run(m.first) && in_run(m.second)) {
          VERIFY_MSG(in(shown, m.first) && in(shown, m.second), "an edge between two instances of the run");
        } else if (in_run(m.first) && !in(shown, m.first)) {
          COMPARE(e.from, (DrawnItem{DrawnItem::Kind::Scope, shown}));
        } else if (in_run(m.second) && !in(shown, m.second)) {
          COMPARE(e.to, (DrawnItem{DrawnItem::Kind::Scope, shown}));
        }
      }
    // Nothing entering or leaving the run is lost.
    for (const ir::Node* c : ep_.graph().nodes()) {
      if (!shown_[c->index()]) continue;
      c->for_each_input([&](const ir::Node* p) {
        if (!p || !shown_[p->index()]) return;
        if (in_run(p->index()) != in_run(c->index())) VERIFY(drawn.count({p->index(), c->index()}));
      });
    }
  }
};

void read_transformer(Transformer& t) {
  serde::ReadOptions options;
  options.load_weights = false;
  t.ep_ = serde::read_pt2(browse_fixture("transformer_stack", "program.pt2"), "", options);
  t.h_ = ir::module_hierarchy(t.ep_.graph());
  for (bool folded : ir::fold_weights(t.ep_).folded) t.shown_.push_back(!folded);
  for (int c : t.h_.root().children)
    if (t.h_[c].path.rfind("blocks.", 0) == 0 && t.h_[c].path.find('.', 7) == std::string::npos) t.blocks_.push_back(c);
  VERIFY(t.blocks_.size() > 3);
}

// Read once, on first use; a failure reading it fails every test that uses it
// (as a failed initTestCase did), without reading it again.
const Transformer& transformer() {
  static SetUp<Transformer> once;
  return once.get(read_transformer);
}

}  // namespace

EL_TEST(a_folded_run_is_one_item) {
  const Transformer& t = transformer();  // the QtTest class's members and helpers, by their names
  const auto& ep_ = t.ep_;
  const auto& h_ = t.h_;
  const auto& shown_ = t.shown_;
  const auto& blocks_ = t.blocks_;
  auto in_run = [&](int node) { return t.in_run(node); };
  auto in = [&](int scope, int node) { return t.in(scope, node); };
  auto check_edges = [&](const ScopedLayout& l, int shown) { t.check_edges(l, shown); };
  layout::ScopedLayoutOptions options;
  options.shown = shown_;
  layout::ScopedLayoutEngine engine(ep_.graph(), h_, options);
  ScopeExpansion expansion(h_.size());
  const ScopedLayout whole = engine.compose(expansion);
  for (int b : blocks_) VERIFY(whole.find_scope(b));

  layout::StackFolds folds{{blocks_, blocks_.front(), {}}};
  const ScopedLayout folded = engine.compose(expansion, nullptr, folds);
  COMPARE(folded.laid_out, std::vector<int>{ir::ModuleHierarchy::kRoot});  // another picture of the root
  for (int b : blocks_) COMPARE(folded.find_scope(b) != nullptr, b == blocks_.front());
  COMPARE(folded.scopes.size(), whole.scopes.size() - (blocks_.size() - 1));
  COMPARE(engine.visible_items(expansion, folds) + (blocks_.size() - 1), engine.visible_items(expansion));
  // One box for the run leaves room to open deeper within the same budget.
  const size_t budget = engine.visible_items(ScopeExpansion::to_depth(h_, 1), folds);
  VERIFY(engine.opening_depth(budget, folds) >= 1);
  COMPARE(engine.opening_depth(budget), 0);
  check_edges(folded, blocks_.front());

  // A box standing for the run may be bigger than the member's own.
  folds[0].box = {300, 60};
  const ScopedLayout wide = engine.compose(expansion, nullptr, folds);
  COMPARE(wide.find_scope(blocks_.front())->rect.width, 300.0);
  folds[0].box = {};

  // Opened: the member shown is a frame around its own nodes, the others' nodes are not drawn.
  const int third = blocks_[2];
  folds[0].shown = third;
  expansion.set_expanded(third, true);
  const ScopedLayout open = engine.compose(expansion, nullptr, folds);
  COMPARE(open.laid_out, (std::vector<int>{third, ir::ModuleHierarchy::kRoot}));
  VERIFY(open.find_scope(third) && open.find_scope(third)->expanded);
  for (int b : blocks_)
    if (b != third) VERIFY(!open.find_scope(b));
  size_t inside = 0;
  for (const auto& n : open.nodes) {
    VERIFY(!in_run(n.node) || in(third, n.node));
    inside += in(third, n.node);
  }
  VERIFY(inside > 0);
  check_edges(open, third);
  // Opened with the run's box: a frame at least as wide, its parts inside it.
  folds[0].box = {900, 60};
  const ScopedLayout wide_open = engine.compose(expansion, nullptr, folds);
  const layout::Rect frame = wide_open.find_scope(third)->rect;
  VERIFY(frame.width >= 900);
  for (const auto& n : wide_open.nodes)
    if (in(third, n.node)) VERIFY(n.rect.x >= frame.x && n.rect.right() <= frame.right());
  folds[0].box = {};

  // Unfolded again: the first picture, from the cache.
  const ScopedLayout again = engine.compose(ScopeExpansion(h_.size()));
  COMPARE(again.levels_laid_out, size_t(0));
  COMPARE(again.scopes.size(), whole.scopes.size());
}

EL_TEST(folds_that_do_not_fit_are_ignored) {
  const Transformer& t = transformer();
  const auto& ep_ = t.ep_;
  const auto& h_ = t.h_;
  const auto& shown_ = t.shown_;
  const auto& blocks_ = t.blocks_;
  layout::ScopedLayoutOptions options;
  options.shown = shown_;
  layout::ScopedLayoutEngine engine(ep_.graph(), h_, options);
  ScopeExpansion expansion(h_.size());
  const size_t all = engine.compose(expansion).scopes.size();
  // Not siblings (a block and a part of another), a shown scope that is no member, a run of one.
  const int part = h_[blocks_[1]].children.front();
  for (const layout::StackFold& bad : {layout::StackFold{{blocks_[0], part}, blocks_[0], {}},
                                       layout::StackFold{{blocks_[0], blocks_[1]}, blocks_[2], {}},
                                       layout::StackFold{{blocks_[0]}, blocks_[0], {}}})
    COMPARE(engine.compose(expansion, nullptr, {bad}).scopes.size(), all);
}

// ---- TestGroupedStackFold --------------------------------------------------------------

// grouped_stages: stacks whose instance is several sibling calls, from the oracle's own table.
namespace {

struct Program {
  ir::ExportedProgram ep;
  ir::ModuleHierarchy h;
  std::vector<bool> shown;
};

Program read(const std::string& level, const std::string& name = "grouped_stages") {
  serde::ReadOptions options;
  options.load_weights = false;
  Program p;
  p.ep = serde::read_pt2(testing::structure_fixture(name, "program.pt2"), "", options);
  if (level == "core") p.ep = passes::lower_to(p.ep, passes::IrLevel::Core);
  p.h = ir::module_hierarchy(p.ep.graph());
  for (bool folded : ir::fold_weights(p.ep).folded) p.shown.push_back(!folded);
  return p;
}

// The oracle's stacks under `parent`, each as its instances' scopes.
std::vector<std::vector<std::vector<int>>> stacks_under(const Program& p, const std::string& parent) {
  std::vector<std::vector<std::vector<int>>> out;
  for (const auto& stack : as_array(field(testing::structure_record("grouped_stages"), "expected_stacks"))) {
    if (as_string(field(stack, "parent")) != parent) continue;
    std::vector<std::vector<int>> instances;
    for (const auto& i : as_array(field(stack, "instances"))) {
      std::vector<int> scopes;
      for (const auto& path : as_array(i)) scopes.push_back(p.h.find_path(as_string(path)));
      instances.push_back(scopes);
    }
    out.push_back(instances);
  }
  return out;
}

layout::StackFold fold_of(const std::vector<std::vector<int>>& instances, size_t shown) {
  layout::StackFold fold;
  for (const auto& i : instances) fold.members.push_back(i.front());
  fold.shown = fold.members[shown];
  if (instances.front().size() > 1) fold.units = instances;
  return fold;
}

/// The data rows of grouped_runs and the_planted_group_is_flagged: the IR level.
const std::vector<std::string> kLevels{"training", "core"};

}  // namespace

EL_TEST(grouped_runs) {
  for_each_row(kLevels, [](const std::string& level) {
    const Program p = read(level);
    const auto top = stacks_under(p, "");
    COMPARE(top.size(), size_t(1));
    const auto& stages = top.front();
    VERIFY(stages.size() > 1);
    // Under stages.0: the groups (several calls each), and the blocks of each group.
    std::vector<std::vector<int>> groups;
    std::vector<std::vector<std::vector<int>>> blocks_of_group;
    for (const auto& st : stacks_under(p, "stages.0"))
      (st.front().size() > 1 ? groups : blocks_of_group.emplace_back()) = st;
    VERIFY_MSG(groups.size() > 2 && groups.front().size() > 2, "the oracle's stack of groups");
    COMPARE(blocks_of_group.size(), groups.size());
    const size_t count = groups.size(), period = groups.front().size();
    std::vector<int> instance_of(p.h.size(), -1);  // per scope inside a group: which group
    for (size_t i = 0; i < count; ++i)
      for (int s : groups[i]) {
        VERIFY(s > 0);
        for (size_t t = 1; t < p.h.size(); ++t)
          if (p.h.encloses(s, static_cast<int>(t))) instance_of[t] = static_cast<int>(i);
      }
    auto group_of = [&](int node) { return instance_of[p.h.scope_of[static_cast<size_t>(node)]]; };

    layout::ScopedLayoutOptions options;
    options.shown = p.shown;
    layout::ScopedLayoutEngine engine(p.ep.graph(), p.h, options);
    // The stages folded (stages.0 shown, open); the blocks of each group open too.
    const ScopeExpansion expansion = ScopeExpansion::to_depth(p.h, 2);
    const layout::StackFolds outer{fold_of(stages, 0)};
    const ScopedLayout whole = engine.compose(expansion, nullptr, outer);
    for (const auto& g : groups)
      for (int s : g) VERIFY(whole.find_scope(s));
    COMPARE(engine.shown_depth(expansion, outer), 2);

    // Collapsed: the first call of the shown group is one box for the whole run, closed though it is open.
    layout::StackFolds folds = outer;
    folds.push_back(fold_of(groups, 1));
    folds.back().box = {420, 70};
    const int anchor = groups[1].front();
    const ScopedLayout one = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) COMPARE(one.find_scope(s) != nullptr, s == anchor);
    VERIFY(!one.find_scope(anchor)->expanded);
    COMPARE(one.find_scope(anchor)->rect.width, 420.0);
    ScopeExpansion closed = expansion;  // every call of every group a box: one box instead of all of them
    for (const auto& g : groups)
      for (int s : g) closed.set_expanded(s, false);
    COMPARE(engine.visible_items(expansion, folds) + (count * period - 1), engine.visible_items(closed, outer));
    COMPARE(engine.shown_depth(expansion, folds), 1);  // the blocks are inside the one box
    std::set<std::pair<int, int>> drawn;
    int crossing = 0;
    for (const auto& e : one.edges)
      for (const auto& m : e.members) {
        drawn.insert(m);
        const bool from_in = group_of(m.first) >= 0, to_in = group_of(m.second) >= 0;
        VERIFY_MSG(!(from_in && to_in), "an edge inside the folded run");
        if (from_in) COMPARE(e.from, (DrawnItem{DrawnItem::Kind::Scope, anchor}));
        if (to_in) COMPARE(e.to, (DrawnItem{DrawnItem::Kind::Scope, anchor}));
        crossing += from_in || to_in;
      }
    VERIFY(crossing >= 2);  // the stage's input into the run, the run's output out of it

    // Open: the shown group's calls, the 2 × ConvBlock in it folded onto its first block.
    folds.back().open = true;
    const std::vector<int>& shown = groups[1];
    folds.push_back(fold_of(blocks_of_group[1], 0));
    COMPARE(folds.back().members.front(), shown.front());
    const ScopedLayout open = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) COMPARE(open.find_scope(s) != nullptr, s == shown.front() || s == shown.back());
    VERIFY(open.find_scope(shown.front())->expanded);
    COMPARE(engine.shown_depth(expansion, folds), 2);
    // Nothing drawn runs between two groups; what enters or leaves the run, or goes from a
    // group's last block to its mixer, is drawn onto the shown group's calls.
    auto in_shown = [&](const DrawnItem& item) {
      const int s = item.kind == DrawnItem::Kind::Node ? p.h.scope_of[static_cast<size_t>(item.index)] : item.index;
      return instance_of[s] == 1;
    };
    drawn.clear();
    for (const auto& e : open.edges)
      for (const auto& m : e.members) {
        drawn.insert(m);
        const int a = group_of(m.first), b = group_of(m.second);
        VERIFY_MSG(a < 0 || b < 0 || a == b, "an edge between two instances of the run");
        if (a >= 0) VERIFY(in_shown(e.from));
        if (b >= 0) VERIFY(in_shown(e.to));
      }
    int entering_or_leaving = 0, block_to_mixer = 0;
    std::vector<std::string> lost;  // dependencies entering, leaving or inside one group that are not drawn
    for (const ir::Node* c : p.ep.graph().nodes()) {
      if (!p.shown[c->index()]) continue;
      c->for_each_input([&](const ir::Node* n) {
        if (!n || !p.shown[n->index()]) return;
        // The other stages are folded into stages.0: what flows into them is not drawn.
        auto other_stage = [&](const ir::Node* x) {
          return std::any_of(stages.begin() + 1, stages.end(), [&](const auto& st) {
            return p.h.encloses(st.front(), p.h.scope_of[x->index()]);
          });
        };
        if (other_stage(n) || other_stage(c)) return;
        const int a = group_of(n->index()), b = group_of(c->index());
        const bool to_mixer = a >= 0 && a == b && p.h.encloses(groups[a][period - 2], p.h.scope_of[n->index()]) &&
                              p.h.encloses(groups[a][period - 1], p.h.scope_of[c->index()]);
        if ((a < 0) != (b < 0)) ++entering_or_leaving;
        block_to_mixer += to_mixer;
        if (((a < 0) != (b < 0) || to_mixer) && !drawn.count({n->index(), c->index()}))
          lost.push_back(n->name + " (" + p.h[p.h.scope_of[n->index()]].path + ") -> " + c->name + " (" +
                         p.h[p.h.scope_of[c->index()]].path + ")");
      });
    }
    VERIFY_MSG(lost.empty(), join(lost, "; "));
    VERIFY(entering_or_leaving >= 2);
    VERIFY(block_to_mixer >= int(count));

    // Another group shown (its blocks unfolded): its calls drawn, no other group's.
    folds.pop_back();
    folds.back().shown = groups[2].front();
    const ScopedLayout other = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) COMPARE(other.find_scope(s) != nullptr, instance_of[s] == 2);
  });
}

// odd_group: one group's mixer planted odd. The stack of groups flags exactly that call, against
// the same call of a plain group, and names what torch's program has more or less in it.
EL_TEST(the_planted_group_is_flagged) {
  for_each_row(kLevels, [](const std::string& level) {
    const Program p = read(level, "odd_group");
    const auto record = testing::structure_record("odd_group");
    std::vector<std::string> planted;  // its keys, sorted
    if (const auto o = field(record, "planted"); o.is_object())
      for (const auto& [key, value] : o.items()) planted.push_back(key);
    COMPARE(planted.size(), size_t(1));
    const int odd_scope = p.h.find_path(planted.front());
    VERIFY(odd_scope > 0);
    const auto s = structure::analyse_structure(p.ep, p.h, structure::solve_guard_facts(p.ep));
    COMPARE(s.odd.size(), size_t(1));  // no other stack flags anything
    const structure::OddInstance& o = s.odd.front();
    const structure::Stack& groups = s.stacks[static_cast<size_t>(o.stack)];
    VERIFY(groups.period > 1 && groups.count() > 2);
    COMPARE(groups.odd, std::vector<int>{0});
    VERIFY(!groups.identical && !groups.varied());
    COMPARE(o.scope, odd_scope);
    COMPARE(groups.instances[static_cast<size_t>(o.repetition)][static_cast<size_t>(o.position)], odd_scope);
    VERIFY(o.repetition != groups.representative);
    COMPARE(o.reference, groups.instances[static_cast<size_t>(groups.representative)][static_cast<size_t>(o.position)]);
    for (const auto& st : s.stacks)
      if (&st != &groups) VERIFY(st.identical && st.odd.empty());
    // What it is said to differ in: the op counts torch's program differs in between the two calls.
    const std::string here = p.h[o.scope].path, there = p.h[o.reference].path;
    std::map<std::string, int> torch_delta = testing::torch_op_counts(record, level, here);
    const auto ref = testing::torch_op_counts(record, level, there);
    for (const auto& [op, count] : ref) torch_delta[op] -= count;
    for (auto it = torch_delta.begin(); it != torch_delta.end();) it = it->second ? std::next(it) : torch_delta.erase(it);
    VERIFY(!torch_delta.empty());
    std::map<std::string, int> named;
    for (const auto& d : o.differences)
      if (d.kind == structure::DifferenceKind::Ops)
        for (const auto& det : d.details) named[det.what] = std::stoi(det.here) - std::stoi(det.there);
    VERIFY_MSG(named == torch_delta, o.summary().c_str());
  });
}

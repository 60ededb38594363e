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
#include <QtTest>

#include <algorithm>
#include <set>

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

using namespace exportlens;
using exportlens::testing::browse_fixture;
using layout::DrawnItem;
using layout::ScopedLayout;
using layout::ScopeExpansion;

class TestStackFold : public QObject {
  Q_OBJECT

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
  void check_edges(const ScopedLayout& l, int shown) {
    std::set<std::pair<int, int>> drawn;
    for (const auto& e : l.edges)
      for (const auto& m : e.members) {
        drawn.insert(m);
        if (in_run(m.first) && in_run(m.second)) {
          QVERIFY2(in(shown, m.first) && in(shown, m.second), "an edge between two instances of the run");
        } else if (in_run(m.first) && !in(shown, m.first)) {
          QCOMPARE(e.from, (DrawnItem{DrawnItem::Kind::Scope, shown}));
        } else if (in_run(m.second) && !in(shown, m.second)) {
          QCOMPARE(e.to, (DrawnItem{DrawnItem::Kind::Scope, shown}));
        }
      }
    // Nothing entering or leaving the run is lost.
    for (const ir::Node* c : ep_.graph().nodes()) {
      if (!shown_[c->index()]) continue;
      c->for_each_input([&](const ir::Node* p) {
        if (!p || !shown_[p->index()]) return;
        if (in_run(p->index()) != in_run(c->index())) QVERIFY(drawn.count({p->index(), c->index()}));
      });
    }
  }

 private slots:
  void initTestCase() {
    serde::ReadOptions options;
    options.load_weights = false;
    ep_ = serde::read_pt2(browse_fixture("transformer_stack", "program.pt2").toStdString(), "", options);
    h_ = ir::module_hierarchy(ep_.graph());
    for (bool folded : ir::fold_weights(ep_).folded) shown_.push_back(!folded);
    for (int c : h_.root().children)
      if (h_[c].path.rfind("blocks.", 0) == 0 && h_[c].path.find('.', 7) == std::string::npos) blocks_.push_back(c);
    QVERIFY(blocks_.size() > 3);
  }

  void a_folded_run_is_one_item() {
    layout::ScopedLayoutOptions options;
    options.shown = shown_;
    layout::ScopedLayoutEngine engine(ep_.graph(), h_, options);
    ScopeExpansion expansion(h_.size());
    const ScopedLayout whole = engine.compose(expansion);
    for (int b : blocks_) QVERIFY(whole.find_scope(b));

    layout::StackFolds folds{{blocks_, blocks_.front(), {}}};
    const ScopedLayout folded = engine.compose(expansion, nullptr, folds);
    QCOMPARE(folded.laid_out, std::vector<int>{ir::ModuleHierarchy::kRoot});  // another picture of the root
    for (int b : blocks_) QCOMPARE(folded.find_scope(b) != nullptr, b == blocks_.front());
    QCOMPARE(folded.scopes.size(), whole.scopes.size() - (blocks_.size() - 1));
    QCOMPARE(engine.visible_items(expansion, folds) + (blocks_.size() - 1), engine.visible_items(expansion));
    // One box for the run leaves room to open deeper within the same budget.
    const size_t budget = engine.visible_items(ScopeExpansion::to_depth(h_, 1), folds);
    QVERIFY(engine.opening_depth(budget, folds) >= 1);
    QCOMPARE(engine.opening_depth(budget), 0);
    check_edges(folded, blocks_.front());

    // A box standing for the run may be bigger than the member's own.
    folds[0].box = {300, 60};
    const ScopedLayout wide = engine.compose(expansion, nullptr, folds);
    QCOMPARE(wide.find_scope(blocks_.front())->rect.width, 300.0);
    folds[0].box = {};

    // Opened: the member shown is a frame around its own nodes, the others' nodes are not drawn.
    const int third = blocks_[2];
    folds[0].shown = third;
    expansion.set_expanded(third, true);
    const ScopedLayout open = engine.compose(expansion, nullptr, folds);
    QCOMPARE(open.laid_out, (std::vector<int>{third, ir::ModuleHierarchy::kRoot}));
    QVERIFY(open.find_scope(third) && open.find_scope(third)->expanded);
    for (int b : blocks_)
      if (b != third) QVERIFY(!open.find_scope(b));
    size_t inside = 0;
    for (const auto& n : open.nodes) {
      QVERIFY(!in_run(n.node) || in(third, n.node));
      inside += in(third, n.node);
    }
    QVERIFY(inside > 0);
    check_edges(open, third);
    // Opened with the run's box: a frame at least as wide, its parts inside it.
    folds[0].box = {900, 60};
    const ScopedLayout wide_open = engine.compose(expansion, nullptr, folds);
    const layout::Rect frame = wide_open.find_scope(third)->rect;
    QVERIFY(frame.width >= 900);
    for (const auto& n : wide_open.nodes)
      if (in(third, n.node)) QVERIFY(n.rect.x >= frame.x && n.rect.right() <= frame.right());
    folds[0].box = {};

    // Unfolded again: the first picture, from the cache.
    const ScopedLayout again = engine.compose(ScopeExpansion(h_.size()));
    QCOMPARE(again.levels_laid_out, size_t(0));
    QCOMPARE(again.scopes.size(), whole.scopes.size());
  }

  void folds_that_do_not_fit_are_ignored() {
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
      QCOMPARE(engine.compose(expansion, nullptr, {bad}).scopes.size(), all);
  }
};


// grouped_stages: stacks whose instance is several sibling calls, from the oracle's own table.
class TestGroupedStackFold : public QObject {
  Q_OBJECT

  struct Program {
    ir::ExportedProgram ep;
    ir::ModuleHierarchy h;
    std::vector<bool> shown;
  };

  static Program read(const QString& level, const QString& name = "grouped_stages") {
    serde::ReadOptions options;
    options.load_weights = false;
    Program p;
    p.ep = serde::read_pt2(testing::structure_fixture(name, "program.pt2").toStdString(), "", options);
    if (level == "core") p.ep = passes::lower_to(p.ep, passes::IrLevel::Core);
    p.h = ir::module_hierarchy(p.ep.graph());
    for (bool folded : ir::fold_weights(p.ep).folded) p.shown.push_back(!folded);
    return p;
  }

  // The oracle's stacks under `parent`, each as its instances' scopes.
  static std::vector<std::vector<std::vector<int>>> stacks_under(const Program& p, const QString& parent) {
    std::vector<std::vector<std::vector<int>>> out;
    for (const auto& s : testing::structure_record("grouped_stages")["expected_stacks"].toArray()) {
      const auto stack = s.toObject();
      if (stack["parent"].toString() != parent) continue;
      std::vector<std::vector<int>> instances;
      for (const auto& i : stack["instances"].toArray()) {
        std::vector<int> scopes;
        for (const auto& path : i.toArray()) scopes.push_back(p.h.find_path(path.toString().toStdString()));
        instances.push_back(scopes);
      }
      out.push_back(instances);
    }
    return out;
  }

  static layout::StackFold fold_of(const std::vector<std::vector<int>>& instances, size_t shown) {
    layout::StackFold fold;
    for (const auto& i : instances) fold.members.push_back(i.front());
    fold.shown = fold.members[shown];
    if (instances.front().size() > 1) fold.units = instances;
    return fold;
  }

 private slots:
  void grouped_runs_data() {
    QTest::addColumn<QString>("level");
    QTest::newRow("training") << QString("training");
    QTest::newRow("core") << QString("core");
  }

  void grouped_runs() {
    QFETCH(QString, level);
    const Program p = read(level);
    const auto top = stacks_under(p, "");
    QCOMPARE(top.size(), size_t(1));
    const auto& stages = top.front();
    QVERIFY(stages.size() > 1);
    // Under stages.0: the groups (several calls each), and the blocks of each group.
    std::vector<std::vector<int>> groups;
    std::vector<std::vector<std::vector<int>>> blocks_of_group;
    for (const auto& st : stacks_under(p, "stages.0"))
      (st.front().size() > 1 ? groups : blocks_of_group.emplace_back()) = st;
    QVERIFY2(groups.size() > 2 && groups.front().size() > 2, "the oracle's stack of groups");
    QCOMPARE(blocks_of_group.size(), groups.size());
    const size_t count = groups.size(), period = groups.front().size();
    std::vector<int> instance_of(p.h.size(), -1);  // per scope inside a group: which group
    for (size_t i = 0; i < count; ++i)
      for (int s : groups[i]) {
        QVERIFY(s > 0);
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
      for (int s : g) QVERIFY(whole.find_scope(s));
    QCOMPARE(engine.shown_depth(expansion, outer), 2);

    // Collapsed: the first call of the shown group is one box for the whole run, closed though it is open.
    layout::StackFolds folds = outer;
    folds.push_back(fold_of(groups, 1));
    folds.back().box = {420, 70};
    const int anchor = groups[1].front();
    const ScopedLayout one = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) QCOMPARE(one.find_scope(s) != nullptr, s == anchor);
    QVERIFY(!one.find_scope(anchor)->expanded);
    QCOMPARE(one.find_scope(anchor)->rect.width, 420.0);
    ScopeExpansion closed = expansion;  // every call of every group a box: one box instead of all of them
    for (const auto& g : groups)
      for (int s : g) closed.set_expanded(s, false);
    QCOMPARE(engine.visible_items(expansion, folds) + (count * period - 1), engine.visible_items(closed, outer));
    QCOMPARE(engine.shown_depth(expansion, folds), 1);  // the blocks are inside the one box
    std::set<std::pair<int, int>> drawn;
    int crossing = 0;
    for (const auto& e : one.edges)
      for (const auto& m : e.members) {
        drawn.insert(m);
        const bool from_in = group_of(m.first) >= 0, to_in = group_of(m.second) >= 0;
        QVERIFY2(!(from_in && to_in), "an edge inside the folded run");
        if (from_in) QCOMPARE(e.from, (DrawnItem{DrawnItem::Kind::Scope, anchor}));
        if (to_in) QCOMPARE(e.to, (DrawnItem{DrawnItem::Kind::Scope, anchor}));
        crossing += from_in || to_in;
      }
    QVERIFY(crossing >= 2);  // the stage's input into the run, the run's output out of it

    // Open: the shown group's calls, the 2 × ConvBlock in it folded onto its first block.
    folds.back().open = true;
    const std::vector<int>& shown = groups[1];
    folds.push_back(fold_of(blocks_of_group[1], 0));
    QCOMPARE(folds.back().members.front(), shown.front());
    const ScopedLayout open = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) QCOMPARE(open.find_scope(s) != nullptr, s == shown.front() || s == shown.back());
    QVERIFY(open.find_scope(shown.front())->expanded);
    QCOMPARE(engine.shown_depth(expansion, folds), 2);
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
        QVERIFY2(a < 0 || b < 0 || a == b, "an edge between two instances of the run");
        if (a >= 0) QVERIFY(in_shown(e.from));
        if (b >= 0) QVERIFY(in_shown(e.to));
      }
    int entering_or_leaving = 0, block_to_mixer = 0;
    QStringList lost;  // dependencies entering, leaving or inside one group that are not drawn
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
          lost << QString("%1 (%2) -> %3 (%4)")
                      .arg(QString::fromStdString(n->name), QString::fromStdString(p.h[p.h.scope_of[n->index()]].path),
                           QString::fromStdString(c->name), QString::fromStdString(p.h[p.h.scope_of[c->index()]].path));
      });
    }
    QVERIFY2(lost.isEmpty(), qPrintable(lost.join("; ")));
    QVERIFY(entering_or_leaving >= 2);
    QVERIFY(block_to_mixer >= int(count));

    // Another group shown (its blocks unfolded): its calls drawn, no other group's.
    folds.pop_back();
    folds.back().shown = groups[2].front();
    const ScopedLayout other = engine.compose(expansion, nullptr, folds);
    for (const auto& g : groups)
      for (int s : g) QCOMPARE(other.find_scope(s) != nullptr, instance_of[s] == 2);
  }

  // odd_group: one group's mixer planted odd. The stack of groups flags exactly that call, against
  // the same call of a plain group, and names what torch's program has more or less in it.
  void the_planted_group_is_flagged_data() { grouped_runs_data(); }
  void the_planted_group_is_flagged() {
    QFETCH(QString, level);
    const Program p = read(level, "odd_group");
    const auto record = testing::structure_record("odd_group");
    const QStringList planted = record["planted"].toObject().keys();
    QCOMPARE(planted.size(), qsizetype(1));
    const int odd_scope = p.h.find_path(planted.front().toStdString());
    QVERIFY(odd_scope > 0);
    const auto s = structure::analyse_structure(p.ep, p.h, structure::solve_guard_facts(p.ep));
    QCOMPARE(s.odd.size(), size_t(1));  // no other stack flags anything
    const structure::OddInstance& o = s.odd.front();
    const structure::Stack& groups = s.stacks[static_cast<size_t>(o.stack)];
    QVERIFY(groups.period > 1 && groups.count() > 2);
    QCOMPARE(groups.odd, std::vector<int>{0});
    QVERIFY(!groups.identical && o.majority);
    QCOMPARE(o.scope, odd_scope);
    QCOMPARE(groups.instances[static_cast<size_t>(o.repetition)][static_cast<size_t>(o.position)], odd_scope);
    QVERIFY(o.repetition != groups.representative);
    QCOMPARE(o.reference, groups.instances[static_cast<size_t>(groups.representative)][static_cast<size_t>(o.position)]);
    for (const auto& st : s.stacks)
      if (&st != &groups) QVERIFY(st.identical && st.odd.empty());
    // What it is said to differ in: the op counts torch's program differs in between the two calls.
    const QString here = QString::fromStdString(p.h[o.scope].path), there = QString::fromStdString(p.h[o.reference].path);
    QMap<QString, int> torch_delta = testing::torch_op_counts(record, level, here);
    const auto ref = testing::torch_op_counts(record, level, there);
    for (auto it = ref.begin(); it != ref.end(); ++it) torch_delta[it.key()] -= it.value();
    for (auto it = torch_delta.begin(); it != torch_delta.end();) it = it.value() ? std::next(it) : torch_delta.erase(it);
    QVERIFY(!torch_delta.isEmpty());
    QMap<QString, int> named;
    for (const auto& d : o.differences)
      if (d.kind == structure::DifferenceKind::Ops)
        for (const auto& det : d.details) named[QString::fromStdString(det.what)] = std::stoi(det.here) - std::stoi(det.there);
    QVERIFY2(named == torch_delta, o.summary().c_str());
  }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  TestStackFold a;
  TestGroupedStackFold b;
  return QTest::qExec(&a, argc, argv) | QTest::qExec(&b, argc, argv);
}
#include "test_stack_fold.moc"

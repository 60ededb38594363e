// A folded run of sibling scopes in the scoped layout (stack_fold.h), on the
// transformer torch exported (oracle/browse_models.py): its blocks folded
// into one, only the member shown is drawn (a box, or opened its frame with
// its own nodes), every dependency entering or leaving the run is bundled
// onto it and none between its members is drawn; the level holding the run
// is laid out anew when the member shown changes, and nothing else is.
#include <QtTest>

#include <algorithm>
#include <set>

#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"
#include "engine/layout/scoped_layout.h"
#include "engine/layout/stack_fold.h"
#include "engine/serde/pt2_reader.h"
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

QTEST_MAIN(TestStackFold)
#include "test_stack_fold.moc"

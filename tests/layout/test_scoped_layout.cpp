// The scoped layout on real programs (oracle/browse_models.py): what is drawn
// for each expansion (the nodes of open scopes, a box per collapsed scope),
// the geometry (nothing overlaps within a level, parts sit inside their
// frame under its title), bundled edges that stand for exactly the
// dependencies between the drawn items, and the level cache: opening a scope
// lays out that scope and the ones around it, and nothing else.
#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"
#include "engine/layout/scoped_layout.h"
#include "engine/serde/pt2_reader.h"
#include "support/browse_fixtures.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using exportlens::testing::browse_fixture;
using exportlens::testing::browse_fixture_names;
using layout::DrawnItem;
using layout::Rect;
using layout::ScopedLayout;
using layout::ScopeExpansion;

namespace {

struct Program {
  ir::ExportedProgram ep;
  ir::ModuleHierarchy hierarchy;
  ir::WeightFolding folding;
  std::vector<bool> shown;
};

std::unique_ptr<Program> open(const std::string& fixture) {
  auto p = std::make_unique<Program>();
  serde::ReadOptions options;
  options.load_weights = false;
  p->ep = serde::read_pt2(browse_fixture(fixture, "program.pt2"), "", options);
  p->hierarchy = ir::module_hierarchy(p->ep.graph());
  p->folding = ir::fold_weights(p->ep);
  for (bool folded : p->folding.folded) p->shown.push_back(!folded);
  return p;
}

layout::ScopedLayoutOptions folded_options(const Program& p) {
  layout::ScopedLayoutOptions options;
  options.shown = p.shown;
  return options;
}

double distance_to_border(const Rect& r, layout::Point p) {
  const double dx = std::max({r.x - p.x, 0.0, p.x - r.right()});
  const double dy = std::max({r.y - p.y, 0.0, p.y - r.bottom()});
  if (dx > 0 || dy > 0) return std::hypot(dx, dy);
  return std::min({p.x - r.x, r.right() - p.x, p.y - r.y, r.bottom() - p.y});
}

// Checks one composed picture against the hierarchy and the graph.
void check_picture(const Program& p, const ScopeExpansion& expansion, const ScopedLayout& l,
                   const layout::ScopedLayoutEngine& engine) {
  const ir::ModuleHierarchy& h = p.hierarchy;
  const auto nodes = p.ep.graph().nodes();
  const std::vector<int>& home = engine.home();
  auto open_all_the_way = [&](int s) { return expansion.is_open_all_the_way(h, s); };
  // A node sits in its innermost drawn scope: its module, unless that module holds it alone.
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!p.shown[n]) continue;
    VERIFY(engine.is_drawn(home[n]));
    if (nodes[n]->op == ir::OpKind::Placeholder) continue;  // a weight shown beside its users
    VERIFY(h.encloses(home[n], h.scope_of[n]));
    for (int s = h.scope_of[n]; s != home[n]; s = h[s].parent) {
      VERIFY_MSG(!engine.is_drawn(s), h[s].label().c_str());
      VERIFY(h.nodes_within(s).size() <= size_t(1) || !h[s].children.empty());
    }
  }

  // Exactly the shown nodes of open scopes, and every visible scope.
  size_t expected_nodes = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const bool drawn = p.shown[n] && open_all_the_way(home[n]);
    expected_nodes += drawn;
    VERIFY_MSG((l.find_node(int(n)) != nullptr) == drawn, nodes[n]->name.c_str());
  }
  COMPARE(l.nodes.size(), expected_nodes);
  size_t expected_scopes = 0;
  for (int s = 1; s < int(h.size()); ++s) {
    const bool drawn = engine.is_drawn(s) && expansion.is_visible(h, s);
    expected_scopes += drawn;
    const auto* placed = l.find_scope(s);
    VERIFY_MSG((placed != nullptr) == drawn, h[s].label().c_str());
    if (placed) COMPARE(placed->expanded, expansion.is_expanded(s));
  }
  COMPARE(l.scopes.size(), expected_scopes);
  COMPARE(l.levels_composed, size_t(std::count_if(l.scopes.begin(), l.scopes.end(),
                                                   [](const auto& s) { return s.expanded; })) + 1);

  // Geometry: within each level nothing overlaps; parts sit inside their frame, below its title.
  std::map<int, std::vector<Rect>> level_items;
  auto frame_of = [&](int scope) { return l.find_scope(scope)->rect; };
  for (const auto& n : l.nodes) {
    VERIFY(l.bounds.contains(n.rect, 0.5));
    const int level = home[n.node];
    level_items[level].push_back(n.rect);
    if (level != ir::ModuleHierarchy::kRoot) {
      const Rect frame = frame_of(level);
      VERIFY_MSG(frame.contains(n.rect, 0.5), nodes[n.node]->name.c_str());
      VERIFY_MSG(n.rect.y - frame.y >= 16, nodes[n.node]->name.c_str());
    }
  }
  for (const auto& s : l.scopes) {
    VERIFY(l.bounds.contains(s.rect, 0.5));
    const int parent = h[s.scope].parent;
    level_items[parent].push_back(s.rect);
    if (parent != ir::ModuleHierarchy::kRoot) VERIFY_MSG(frame_of(parent).contains(s.rect, 0.5), h[s.scope].label().c_str());
  }
  for (const auto& [level, rects] : level_items)
    for (size_t i = 0; i < rects.size(); ++i)
      for (size_t j = i + 1; j < rects.size(); ++j) VERIFY_MSG(!rects[i].intersects(rects[j]), h[level].label().c_str());

  // Bundles: one per pair of drawn items; together they stand for every
  // dependency between two different drawn items, each once.
  auto drawn_as = [&](int n) {
    int box = -1;
    for (int s : h.path_to(home[n]))
      if (s != ir::ModuleHierarchy::kRoot && engine.is_drawn(s) && !expansion.is_expanded(s)) {
        box = s;
        break;
      }
    return box >= 0 ? DrawnItem{DrawnItem::Kind::Scope, box} : DrawnItem{DrawnItem::Kind::Node, n};
  };
  auto rect_of = [&](const DrawnItem& item) {
    return item.kind == DrawnItem::Kind::Node ? l.find_node(item.index)->rect : l.find_scope(item.index)->rect;
  };
  std::set<std::pair<int, int>> expected_members;
  for (const ir::Node* consumer : nodes) {
    if (!p.shown[consumer->index()]) continue;
    consumer->for_each_input([&](const ir::Node* producer) {
      if (!producer || producer->graph() != &p.ep.graph() || !p.shown[producer->index()]) return;
      if (drawn_as(producer->index()) != drawn_as(consumer->index()))
        expected_members.insert({producer->index(), consumer->index()});
    });
  }
  std::set<std::pair<DrawnItem, DrawnItem>> pairs;
  size_t members = 0;
  for (const auto& e : l.edges) {
    VERIFY(pairs.insert({e.from, e.to}).second);
    VERIFY(e.curve.size() >= 4 && (e.curve.size() - 1) % 3 == 0);
    VERIFY(distance_to_border(rect_of(e.from), e.curve.front()) < 2.0);
    VERIFY(distance_to_border(rect_of(e.to), e.arrow_tip) < 2.0);
    for (const auto& [from, to] : e.members) {
      VERIFY(expected_members.count({from, to}));
      VERIFY(drawn_as(from) == e.from && drawn_as(to) == e.to);
      ++members;
    }
  }
  COMPARE(members, expected_members.size());
}

}  // namespace

EL_TEST(every_depth_draws_what_is_open) {
  for_each_row(browse_fixture_names(), [](const std::string& fixture) {
    const auto p = open(fixture);
    layout::ScopedLayoutEngine engine(p->ep.graph(), p->hierarchy, folded_options(*p));
    for (int depth = 0; depth <= p->hierarchy.max_depth(); ++depth) {
      const ScopeExpansion expansion = ScopeExpansion::to_depth(p->hierarchy, depth);
      try {
        check_picture(*p, expansion, engine.compose(expansion), engine);
      } catch (Failure& f) {  // which depth failed (the QtTest suite stopped there with it)
        f.message += " (at depth " + std::to_string(depth) + ")";
        throw;
      }
    }
  });
}

EL_TEST(weights_shown_sit_beside_their_users) {
  const auto p = open("transformer_stack");
  std::vector<bool> all(p->shown.size(), true);
  const std::vector<int> home = layout::ScopedLayoutEngine::homes_beside_users(p->ep.graph(), p->hierarchy, p->folding.folded);
  const ir::Node* weight = p->ep.graph().find("p_blocks_3_mlp_fc1_weight");
  VERIFY(weight);
  COMPARE(p->hierarchy[home[weight->index()]].path, std::string("blocks.3.mlp.fc1"));
  layout::ScopedLayoutOptions options;
  options.home = home;
  p->shown = all;
  layout::ScopedLayoutEngine engine(p->ep.graph(), p->hierarchy, options);
  const ScopeExpansion expansion = ScopeExpansion::everything(p->hierarchy);
  check_picture(*p, expansion, engine.compose(expansion), engine);
}

EL_TEST(opening_one_scope_lays_out_only_its_path) {
  const auto p = open("transformer_stack");
  const ir::ModuleHierarchy& h = p->hierarchy;
  layout::ScopedLayoutEngine engine(p->ep.graph(), h, folded_options(*p));
  ScopeExpansion expansion(h.size());
  const ScopedLayout top = engine.compose(expansion);
  COMPARE(top.levels_laid_out, size_t(1));  // the root, the top-level modules as boxes
  COMPARE(top.laid_out, std::vector<int>{ir::ModuleHierarchy::kRoot});

  // A block (a top-level call: the ModuleList holding it is never called): it, then the root.
  const int block = h.find_path("blocks.5");
  VERIFY(block > 0);
  expansion.set_expanded(block, true);
  COMPARE(engine.compose(expansion).laid_out, (std::vector<int>{block, ir::ModuleHierarchy::kRoot}));
  // Its MLP: that, then the block (its box grew), then the root.
  const int mlp = h.find_path("blocks.5.mlp");
  expansion.set_expanded(mlp, true);
  COMPARE(engine.compose(expansion).laid_out, (std::vector<int>{mlp, block, ir::ModuleHierarchy::kRoot}));
  // Its attention, beside the MLP: that, the block and the root; the MLP's level comes from the cache.
  const int attn = h.find_path("blocks.5.attn");
  expansion.set_expanded(attn, true);
  COMPARE(engine.compose(expansion).laid_out, (std::vector<int>{attn, block, ir::ModuleHierarchy::kRoot}));
  // A Linear holds one op: it is drawn as that op, not as a box of its own.
  VERIFY(!engine.is_drawn(h.find_path("blocks.5.attn.qkv")));
  VERIFY(engine.is_drawn(attn));

  // Closing it again: every level comes from the cache.
  expansion.set_expanded(attn, false);
  const ScopedLayout closed = engine.compose(expansion);
  COMPARE(closed.levels_laid_out, size_t(0));
  COMPARE(closed.levels_composed, size_t(3));
  check_picture(*p, expansion, closed, engine);
  // Another block next to it: that block and the root, not blocks.5 again.
  const int other = h.find_path("blocks.6");
  expansion.set_expanded(other, true);
  COMPARE(engine.compose(expansion).laid_out, (std::vector<int>{other, ir::ModuleHierarchy::kRoot}));
  COMPARE(engine.levels_laid_out(), size_t(1 + 2 + 3 + 3 + 2));
}

EL_TEST(bundles_carry_the_boundary_values) {
  // At the top level each block is a box: what enters it is what torch's
  // module stack says crosses its boundary (weights folded away).
  const auto p = open("transformer_stack");
  const ir::ModuleHierarchy& h = p->hierarchy;
  layout::ScopedLayoutEngine engine(p->ep.graph(), h, folded_options(*p));
  const ScopeExpansion expansion(h.size());
  const ScopedLayout l = engine.compose(expansion);
  const int block = h.find_path("blocks.2");
  std::set<int> entering, leaving;
  for (const auto& e : l.edges) {
    for (const auto& [from, to] : e.members) {
      if (e.to == DrawnItem{DrawnItem::Kind::Scope, block}) entering.insert(from);
      if (e.from == DrawnItem{DrawnItem::Kind::Scope, block}) leaving.insert(from);
    }
  }
  std::set<int> inputs, outputs(h[block].outputs.begin(), h[block].outputs.end());
  for (int n : h[block].inputs)
    if (p->shown[n]) inputs.insert(n);
  COMPARE(entering, inputs);
  COMPARE(leaving, outputs);
  VERIFY(!inputs.empty());
}

EL_TEST(opens_at_the_depth_that_fits) {
  for (const std::string& fixture : browse_fixture_names()) {
    const auto p = open(fixture);
    const ir::ModuleHierarchy& h = p->hierarchy;
    layout::ScopedLayoutEngine engine(p->ep.graph(), h, folded_options(*p));
    const int depth = engine.opening_depth(150);
    const size_t items = engine.visible_items(ScopeExpansion::to_depth(h, depth));
    VERIFY_MSG(items <= 150 || depth == 0, fixture);
    if (depth < h.max_depth()) VERIFY(engine.visible_items(ScopeExpansion::to_depth(h, depth + 1)) > 150);
    // What the engine draws at that depth is what was counted.
    const ScopedLayout l = engine.compose(ScopeExpansion::to_depth(h, depth));
    COMPARE(l.nodes.size() + l.scopes.size(), items);
  }
  // A budget too small for even the top level still opens at depth 0.
  const auto p = open("nested_cnn");
  COMPARE(layout::ScopedLayoutEngine(p->ep.graph(), p->hierarchy, folded_options(*p)).opening_depth(3), 0);
}

EL_TEST(is_deterministic_and_thread_safe) {
  const auto p = open("nested_cnn");
  const ScopeExpansion expansion = ScopeExpansion::everything(p->hierarchy);
  layout::ScopedLayoutEngine a(p->ep.graph(), p->hierarchy, folded_options(*p));
  layout::ScopedLayoutEngine b(p->ep.graph(), p->hierarchy, folded_options(*p));
  auto first = std::async(std::launch::async, [&] { return a.compose(expansion); });
  const ScopedLayout second = b.compose(expansion);
  const ScopedLayout one = first.get();
  COMPARE(one.nodes.size(), second.nodes.size());
  for (size_t i = 0; i < one.nodes.size(); ++i) {
    COMPARE(one.nodes[i].rect.x, second.nodes[i].rect.x);
    COMPARE(one.nodes[i].rect.y, second.nodes[i].rect.y);
  }
  COMPARE(one.edges.size(), second.edges.size());
  for (size_t i = 0; i < one.edges.size(); ++i) VERIFY(one.edges[i].curve == second.edges[i].curve);
}

EL_TEST(cancel_stops_it) {
  const auto p = open("nested_cnn");
  layout::ScopedLayoutEngine engine(p->ep.graph(), p->hierarchy, folded_options(*p));
  CancelToken token;
  token.cancel();
  VERIFY_THROWS(Cancelled, engine.compose(ScopeExpansion::everything(p->hierarchy), &token));
  COMPARE(engine.compose(ScopeExpansion(p->hierarchy.size())).levels_composed, size_t(1));
}


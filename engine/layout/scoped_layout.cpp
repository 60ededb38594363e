#include "engine/layout/scoped_layout.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/layout/node_label.h"

namespace exportlens::layout {
namespace {

constexpr double kArrowLength = 8;
constexpr size_t kMaxCachedLevels = 50000;

uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix64's finalizer over the running value: order-sensitive, well spread.
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

Point shifted(Point p, Point by) { return {p.x + by.x, p.y + by.y}; }
Rect shifted(const Rect& r, Point by) { return {r.x + by.x, r.y + by.y, r.width, r.height}; }
Point bottom_centre(const Rect& r) { return {r.centre().x, r.bottom()}; }
Point top_centre(const Rect& r) { return {r.centre().x, r.y}; }

}  // namespace

struct ScopedLayoutEngine::Level {
  Size content;             // the parts' bounding box
  std::vector<Rect> rects;  // per item, relative to the content's top-left corner (folded members: none)
  std::map<std::pair<int, int>, BoxRoute> routes;  // by (from, to) drawn item positions
};

const ScopedLayout::PlacedNode* ScopedLayout::find_node(int node) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), node,
                             [](const PlacedNode& p, int n) { return p.node < n; });
  return it != nodes.end() && it->node == node ? &*it : nullptr;
}

const ScopedLayout::PlacedScope* ScopedLayout::find_scope(int scope) const {
  for (const auto& s : scopes)
    if (s.scope == scope) return &s;
  return nullptr;
}

std::vector<int> ScopedLayoutEngine::homes_beside_users(const ir::Graph& graph, const ir::ModuleHierarchy& hierarchy,
                                                        const std::vector<bool>& move) {
  std::vector<int> home = hierarchy.scope_of;
  for (const ir::Node* node : graph.nodes()) {
    const int i = node->index();
    if (static_cast<size_t>(i) >= move.size() || !move[i] || node->users().empty()) continue;
    int common = -1;
    for (const ir::Node* user : node->users()) {
      const int s = hierarchy.scope_of[user->index()];
      common = common < 0 ? s : hierarchy.common_ancestor(common, s);
    }
    home[i] = common;
  }
  return home;
}

ScopedLayoutEngine::ScopedLayoutEngine(const ir::Graph& graph, const ir::ModuleHierarchy& hierarchy,
                                       ScopedLayoutOptions options)
    : graph_(graph), hierarchy_(hierarchy), nodes_(graph.nodes()), options_(std::move(options)) {
  const size_t n = nodes_.size();
  if (hierarchy_.scope_of.size() != n) throw std::invalid_argument("scoped layout: the hierarchy is of another graph");
  home_ = options_.home.empty() ? hierarchy_.scope_of : options_.home;
  shown_ = options_.shown.empty() ? std::vector<bool>(n, true) : options_.shown;
  if (home_.size() != n || shown_.size() != n) throw std::invalid_argument("scoped layout: one home and one flag per node");

  // Scopes of one node are not drawn: innermost first (children come after
  // their parents), a scope left with a single node and no drawn child hands
  // the node to the scope around it.
  const size_t scopes = hierarchy_.size();
  drawn_.assign(scopes, true);
  {
    std::vector<std::vector<int>> direct(scopes);
    for (size_t i = 0; i < n; ++i)
      if (shown_[i]) direct[home_[i]].push_back(static_cast<int>(i));
    std::vector<int> drawn_children(scopes, 0);
    for (size_t s = scopes; s-- > 1;) {
      const int parent = hierarchy_[static_cast<int>(s)].parent;
      const bool single = drawn_children[s] == 0 && direct[s].size() == 1;
      if (drawn_children[s] == 0 && (direct[s].empty() || (single && options_.inline_single_node_scopes))) {
        drawn_[s] = false;
        for (int node : direct[s]) {
          home_[node] = parent;
          direct[parent].push_back(node);
        }
      } else {
        ++drawn_children[parent];
      }
    }
  }

  // Each level's items in program order: its nodes and its drawn child scopes, by first node.
  items_.assign(scopes, {});
  position_of_node_.assign(n, -1);
  position_of_scope_.assign(scopes, -1);
  std::vector<std::vector<std::pair<int, DrawnItem>>> ordered(scopes);
  for (size_t i = 0; i < n; ++i)
    if (shown_[i]) ordered[home_[i]].push_back({static_cast<int>(i), {DrawnItem::Kind::Node, static_cast<int>(i)}});
  for (size_t s = 1; s < scopes; ++s) {
    const auto& scope = hierarchy_[static_cast<int>(s)];
    if (drawn_[s]) ordered[scope.parent].push_back({scope.first_node, {DrawnItem::Kind::Scope, static_cast<int>(s)}});
  }
  for (size_t s = 0; s < scopes; ++s) {
    std::stable_sort(ordered[s].begin(), ordered[s].end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [first, item] : ordered[s]) {
      const int position = static_cast<int>(items_[s].size());
      (item.kind == DrawnItem::Kind::Node ? position_of_node_ : position_of_scope_)[item.index] = position;
      items_[s].push_back(item);
    }
  }

  // Every drawn dependency, routed in the level of its two ends' common scope.
  auto position_in = [&](int level, int node) {
    return home_[node] == level ? position_of_node_[node]
                                : position_of_scope_[hierarchy_.child_toward(level, home_[node])];
  };
  level_dependencies_.assign(scopes, {});
  for (size_t c = 0; c < n; ++c) {
    if (!shown_[c]) continue;
    std::set<int> seen;
    nodes_[c]->for_each_input([&](const ir::Node* input) {
      if (!input || input->graph() != &graph_) return;
      const int p = input->index();
      if (p < 0 || static_cast<size_t>(p) >= n || nodes_[p] != input || !shown_[p] || !seen.insert(p).second) return;
      const int level = hierarchy_.common_ancestor(home_[p], home_[c]);
      level_dependencies_[level].push_back(static_cast<int>(dependencies_.size()));
      dependencies_.push_back({p, static_cast<int>(c), level, position_in(level, p), position_in(level, static_cast<int>(c))});
    });
  }
}

size_t ScopedLayoutEngine::visible_items(const ScopeExpansion& expansion, const StackFolds& folds) const {
  const FoldMap map = fold_map(hierarchy_, folds, drawn_);
  std::vector<size_t> hidden(hierarchy_.size(), 0);  // per scope: its children left out by a fold
  for (size_t s = 1; s < hierarchy_.size(); ++s)
    if (map.stand_in[s] >= 0) ++hidden[hierarchy_[static_cast<int>(s)].parent];
  const std::vector<bool> open = open_levels(expansion, map);
  size_t items = 0;
  for (size_t s = 0; s < hierarchy_.size(); ++s)
    if (open[s]) items += items_[s].size() - hidden[s];
  return items;
}

std::vector<bool> ScopedLayoutEngine::open_levels(const ScopeExpansion& expansion, const FoldMap& map) const {
  // Open scopes inside open scopes (parents come first); a folded stack's
  // hidden members are not drawn at all, and a run's box is no frame.
  std::vector<bool> open(hierarchy_.size(), false);
  for (size_t s = 0; s < hierarchy_.size(); ++s) {
    const int parent = hierarchy_[static_cast<int>(s)].parent;
    open[s] = drawn_[s] && map.stand_in[s] < 0 && !map.closed[s] && expansion.is_expanded(static_cast<int>(s)) &&
              (parent < 0 || open[parent]);
  }
  return open;
}

int ScopedLayoutEngine::shown_depth(const ScopeExpansion& expansion, const StackFolds& folds) const {
  const std::vector<bool> open = open_levels(expansion, fold_map(hierarchy_, folds, drawn_));
  int depth = 0;
  for (size_t s = 1; s < hierarchy_.size(); ++s)
    if (open[s]) depth = std::max(depth, hierarchy_[static_cast<int>(s)].depth);
  return depth;
}

int ScopedLayoutEngine::opening_depth(size_t budget, const StackFolds& folds) const {
  int depth = 0;
  for (int d = 1; d <= hierarchy_.max_depth(); ++d) {
    if (visible_items(ScopeExpansion::to_depth(hierarchy_, d), folds) > budget) break;
    depth = d;
  }
  return depth;
}

size_t ScopedLayoutEngine::levels_laid_out() const {
  std::lock_guard lock(mutex_);
  return laid_out_total_;
}

size_t ScopedLayoutEngine::cached_levels() const {
  std::lock_guard lock(mutex_);
  return cache_.size();
}

Size ScopedLayoutEngine::frame_size(const Level& level) const {
  return {level.content.width + 2 * options_.frame_padding,
          level.content.height + options_.label_height + 2 * options_.frame_padding};
}

Size ScopedLayoutEngine::collapsed_size(int scope) const {
  if (options_.collapsed_size) return options_.collapsed_size(scope);
  const std::string label = hierarchy_[scope].label();
  return {std::max(100.0, label.size() * 6.5 + 24), 44};
}

bool ScopedLayoutEngine::between_instances(int level, int from, int to, const FoldMap& map) const {
  const DrawnItem& a = items_[level][from];
  const DrawnItem& b = items_[level][to];
  return a.kind == DrawnItem::Kind::Scope && b.kind == DrawnItem::Kind::Scope && map.between_instances(a.index, b.index);
}

int ScopedLayoutEngine::drawn_position(int level, int position, const std::vector<int>& stand_in) const {
  const DrawnItem& item = items_[level][position];
  if (item.kind == DrawnItem::Kind::Scope && stand_in[item.index] >= 0) return position_of_scope_[stand_in[item.index]];
  return position;
}

ScopedLayoutEngine::LevelPtr ScopedLayoutEngine::level_for(int scope, uint64_t signature,
                                                           const std::vector<LevelPtr>& levels,
                                                           const FoldMap& map, ScopedLayout& out) {
  const auto key = std::make_pair(scope, signature);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;

  // One box per drawn item; a folded stack's hidden members are not boxes,
  // their edges go to the member shown, and edges among them vanish.
  const std::vector<int>& stand_in = map.stand_in;
  BoxGraph boxes;
  const auto& items = items_[scope];
  std::vector<int> box_of(items.size(), -1);
  boxes.boxes.reserve(items.size());
  for (size_t p = 0; p < items.size(); ++p) {
    const DrawnItem& item = items[p];
    if (drawn_position(scope, static_cast<int>(p), stand_in) != static_cast<int>(p)) continue;
    box_of[p] = static_cast<int>(boxes.boxes.size());
    if (item.kind == DrawnItem::Kind::Node) {
      const ir::Node& node = *nodes_[item.index];
      boxes.boxes.push_back(options_.node_size ? options_.node_size(node) : estimated_box_size(node_label(node)));
    } else {
      const Size& run_box = map.box[item.index];
      Size box = levels[item.index] ? frame_size(*levels[item.index]) : collapsed_size(item.index);
      if (run_box.width > 0) {
        // Standing for its run: the run's box, or opened a frame at least as wide (its title says the run).
        if (!levels[item.index]) box = run_box;
        else box.width = std::max(box.width, run_box.width);
      }
      boxes.boxes.push_back(box);
    }
  }
  std::set<std::pair<int, int>> seen;
  std::vector<std::pair<int, int>> edge_keys;
  for (int d : level_dependencies_[scope]) {
    const Dependency& dep = dependencies_[d];
    const int from = drawn_position(scope, dep.from, stand_in), to = drawn_position(scope, dep.to, stand_in);
    if (from == to || between_instances(scope, dep.from, dep.to, map) || !seen.insert({from, to}).second) continue;
    boxes.edges.emplace_back(box_of[from], box_of[to]);
    edge_keys.emplace_back(from, to);
  }
  const BoxGraphLayout placed = layout_boxes(boxes, options_.spacing);

  auto level = std::make_shared<Level>();
  level->content = placed.size;
  level->rects.assign(items.size(), Rect{});
  for (size_t p = 0; p < items.size(); ++p)
    if (box_of[p] >= 0) level->rects[p] = placed.boxes[box_of[p]];
  for (size_t e = 0; e < edge_keys.size(); ++e) level->routes.emplace(edge_keys[e], placed.routes[e]);
  if (cache_.size() >= kMaxCachedLevels) cache_.clear();
  cache_.emplace(key, level);
  ++laid_out_total_;
  ++out.levels_laid_out;
  out.laid_out.push_back(scope);
  return level;
}

ScopedLayout ScopedLayoutEngine::compose(const ScopeExpansion& expansion, const CancelToken* cancel,
                                         const StackFolds& folds) {
  std::lock_guard lock(mutex_);
  const size_t scopes = hierarchy_.size();
  ScopedLayout out;
  const FoldMap map = fold_map(hierarchy_, folds, drawn_);
  const std::vector<int>& stand_in = map.stand_in;
  const std::vector<bool> open = open_levels(expansion, map);
  // A level's layout depends on what is open inside it: children come after
  // their parents, so one backward pass hashes it and lays levels out
  // innermost first (a parent needs its open children's sizes).
  std::vector<uint64_t> signature(scopes, 0);
  std::vector<LevelPtr> levels(scopes);
  for (size_t i = scopes; i-- > 0;) {
    if (!open[i]) continue;
    if (cancel && cancel->is_cancelled()) throw Cancelled();
    uint64_t h = mix(0, i);
    for (int child : hierarchy_[static_cast<int>(i)].children) {
      if (open[child]) h = mix(mix(h, static_cast<uint64_t>(child)), signature[child]);
      if (stand_in[child] >= 0) h = mix(mix(h, ~static_cast<uint64_t>(child)), static_cast<uint64_t>(stand_in[child]));
      if (map.box[child].width > 0)
        h = mix(mix(h, static_cast<uint64_t>(map.box[child].width * 64)), static_cast<uint64_t>(map.box[child].height * 64));
    }
    signature[i] = h;
    levels[i] = level_for(static_cast<int>(i), h, levels, map, out);
    ++out.levels_composed;
  }

  // Place every level inside its frame, outermost first.
  std::vector<Point> origin(scopes);
  std::vector<Rect> node_rect(nodes_.size()), scope_rect(scopes);
  for (size_t s = 0; s < scopes; ++s) {
    if (!open[s]) continue;
    const Level& level = *levels[s];
    const auto& items = items_[s];
    for (size_t i = 0; i < items.size(); ++i) {
      const Rect rect = shifted(level.rects[i], origin[s]);
      const DrawnItem& item = items[i];
      if (item.kind == DrawnItem::Kind::Scope && stand_in[item.index] >= 0) continue;  // folded into the member shown
      if (item.kind == DrawnItem::Kind::Node) {
        out.nodes.push_back({item.index, rect});
        node_rect[item.index] = rect;
      } else {
        out.scopes.push_back({item.index, rect, open[item.index]});
        scope_rect[item.index] = rect;
        if (open[item.index]) {
          // A frame made wider than its parts (one standing for a folded run) centres them.
          const double slack = std::max(0.0, rect.width - frame_size(*levels[item.index]).width);
          origin[item.index] = {rect.x + slack / 2 + options_.frame_padding,
                                rect.y + options_.label_height + options_.frame_padding};
        }
      }
    }
  }
  std::sort(out.nodes.begin(), out.nodes.end(), [](const auto& a, const auto& b) { return a.node < b.node; });
  out.bounds = {0, 0, levels[ir::ModuleHierarchy::kRoot]->content.width,
                levels[ir::ModuleHierarchy::kRoot]->content.height};

  // What each node is drawn as: itself, or the outermost collapsed scope
  // around it, or the member shown for the folded member it lies in (a box,
  // or a frame when that member is open).
  std::vector<int> drawn_scope(scopes, -1);
  for (size_t s = 1; s < scopes; ++s) {
    const int parent = hierarchy_[static_cast<int>(s)].parent;
    drawn_scope[s] = drawn_scope[parent] >= 0 ? drawn_scope[parent]
                     : stand_in[s] >= 0      ? stand_in[s]
                     : open[s]               ? -1
                                             : static_cast<int>(s);
  }
  auto drawn_as = [&](int node) {
    const int box = drawn_scope[home_[node]];
    return box >= 0 ? DrawnItem{DrawnItem::Kind::Scope, box} : DrawnItem{DrawnItem::Kind::Node, node};
  };
  // An edge between a folded member's stand-in frame and a part inside that frame stays inside the stack.
  auto inside_frame = [&](const DrawnItem& item, const DrawnItem& frame) {
    if (frame.kind != DrawnItem::Kind::Scope || !open[frame.index]) return false;
    return hierarchy_.encloses(frame.index, item.kind == DrawnItem::Kind::Node ? home_[item.index] : item.index);
  };
  auto rect_of = [&](const DrawnItem& item) {
    return item.kind == DrawnItem::Kind::Node ? node_rect[item.index] : scope_rect[item.index];
  };

  // One bundle per pair of drawn items, routed through the level that holds
  // both: dot's route there, extended into open scopes to the drawn ends.
  std::map<std::pair<DrawnItem, DrawnItem>, size_t> bundle_of;
  for (const Dependency& dep : dependencies_) {
    const DrawnItem from = drawn_as(dep.producer), to = drawn_as(dep.consumer);
    if (from == to || inside_frame(from, to) || inside_frame(to, from) ||
        between_instances(dep.level, dep.from, dep.to, map))
      continue;  // inside one box or one stack
    const int from_position = drawn_position(dep.level, dep.from, stand_in);
    const int to_position = drawn_position(dep.level, dep.to, stand_in);
    const auto route_it = levels[dep.level]->routes.find({from_position, to_position});
    if (route_it == levels[dep.level]->routes.end()) continue;
    auto [it, inserted] = bundle_of.try_emplace({from, to}, out.edges.size());
    if (!inserted) {
      out.edges[it->second].members.emplace_back(dep.producer, dep.consumer);
      continue;
    }
    const BoxRoute& route = route_it->second;
    const Point at = origin[dep.level];
    ScopedLayout::Edge edge{from, to, {}, shifted(route.arrow_tip, at), {{dep.producer, dep.consumer}}};
    if (from != items_[dep.level][from_position]) {
      // From a part inside an open scope down to where the level's route leaves its frame.
      const Point start = bottom_centre(rect_of(from));
      append_vertical_cubic(edge.curve, start, shifted(route.curve.front(), at));
    } else {
      edge.curve.push_back(shifted(route.curve.front(), at));
    }
    for (size_t k = 1; k < route.curve.size(); ++k) edge.curve.push_back(shifted(route.curve[k], at));
    if (to != items_[dep.level][to_position]) {
      const Point tip = top_centre(rect_of(to));
      append_vertical_cubic(edge.curve, edge.curve.back(), {tip.x, tip.y - kArrowLength});
      edge.arrow_tip = tip;
    }
    out.edges.push_back(std::move(edge));
  }
  return out;
}

}  // namespace exportlens::layout

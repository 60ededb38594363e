#pragma once
// The layout of a program browsed by its module hierarchy: every open scope
// is laid out on its own (one dot run over its nodes and its child scopes'
// boxes), the levels are composed into one picture, and each level's layout
// is cached by the scope and what is open inside it, so opening a scope lays
// out that scope and the scopes around it (whose boxes grew) and nothing
// else. Edges between boxes are bundled: one route per pair of drawn items,
// listing the node-to-node dependencies it stands for.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/layout/box_layout.h"
#include "engine/base/cancel_token.h"
#include "engine/layout/geometry.h"
#include "engine/layout/scope_expansion.h"
#include "engine/layout/stack_fold.h"

namespace exportlens::layout {

/// Something drawn: a node's box or a module scope's (open or collapsed).
struct DrawnItem {
  enum class Kind { Node, Scope };
  Kind kind = Kind::Node;
  int index = -1;  // Node::index() or the scope
  friend auto operator<=>(const DrawnItem&, const DrawnItem&) = default;
};

struct ScopedLayout {
  struct PlacedNode {
    int node;  // Node::index()
    Rect rect;
  };
  struct PlacedScope {
    int scope;
    Rect rect;
    bool expanded;  // a frame around its parts, else a box standing for them
  };
  struct Edge {
    DrawnItem from, to;
    std::vector<Point> curve;  // start, then three points per cubic
    Point arrow_tip;
    /// The dependencies it draws: (producer, consumer) node indices, in consumer order.
    std::vector<std::pair<int, int>> members;
  };

  Rect bounds;  // starts at (0, 0)
  std::vector<PlacedNode> nodes;    // in graph order
  std::vector<PlacedScope> scopes;  // every drawn scope but the root, parents before children
  std::vector<Edge> edges;
  size_t levels_laid_out = 0;  // levels this composition laid out (the others came from the cache)
  size_t levels_composed = 0;  // open scopes drawn (the root included)
  std::vector<int> laid_out;   // which scopes were laid out, in order

  const PlacedNode* find_node(int node) const;
  const PlacedScope* find_scope(int scope) const;
};

struct ScopedLayoutOptions {
  /// A node's box; the default estimates it from node_label() with a 10 pt sans font.
  std::function<Size(const ir::Node&)> node_size;
  /// A collapsed scope's box; the default estimates it from the scope's label.
  std::function<Size(int scope)> collapsed_size;
  /// Drawn at all, per node (empty: every node). Weights folded into their users are not.
  std::vector<bool> shown;
  /// The scope a node is drawn in, per node (empty: its innermost module scope).
  std::vector<int> home;
  /// A scope holding a single node and nothing else (a Conv2d, a ReLU) is
  /// not drawn: its node sits in the scope around it, as a box of its own.
  bool inline_single_node_scopes = true;
  double frame_padding = 10;  // around an open scope's parts
  double label_height = 16;   // above them, for the scope's title
  dot::Spacing spacing;
};

class ScopedLayoutEngine {
 public:
  /// `graph` and `hierarchy` must outlive the engine.
  ScopedLayoutEngine(const ir::Graph& graph, const ir::ModuleHierarchy& hierarchy, ScopedLayoutOptions options = {});

  /// The picture for `expansion`, each of `folds` drawn as its shown member
  /// (stack_fold.h). Safe from any thread (one composition at a time); throws
  /// Cancelled between levels when `cancel` is set.
  ScopedLayout compose(const ScopeExpansion& expansion, const CancelToken* cancel = nullptr,
                       const StackFolds& folds = {});

  const ir::ModuleHierarchy& hierarchy() const { return hierarchy_; }
  /// The scope each node is drawn in (its module scope, or the nearest drawn one around it).
  const std::vector<int>& home() const { return home_; }
  const std::vector<bool>& shown() const { return shown_; }
  /// Whether a scope is drawn at all (as a box or a frame); single-node scopes are not.
  bool is_drawn(int scope) const { return drawn_[scope]; }
  /// The items an expansion draws: nodes and scope boxes and frames (a folded run's hidden members not).
  size_t visible_items(const ScopeExpansion& expansion, const StackFolds& folds = {}) const;
  /// The deepest depth whose expansion draws at most `budget` items (0 when
  /// even the top level draws more); a program small enough opens fully.
  int opening_depth(size_t budget, const StackFolds& folds = {}) const;
  /// The depth of the deepest scope drawn open (0: only the top level), folds taken into account.
  int shown_depth(const ScopeExpansion& expansion, const StackFolds& folds = {}) const;
  /// Levels laid out since the engine was made (cache misses), and those cached now.
  size_t levels_laid_out() const;
  size_t cached_levels() const;

  /// The common scope of each node's users, for nodes drawn beside them
  /// (a weight placeholder shown as a node); every other node its own scope.
  static std::vector<int> homes_beside_users(const ir::Graph& graph, const ir::ModuleHierarchy& hierarchy,
                                             const std::vector<bool>& move);

 private:
  struct Dependency {
    int producer, consumer;  // node indices
    int level;               // the scope whose level routes it (common scope of the two homes)
    int from, to;            // their items' positions in that level
  };
  struct Level;
  using LevelPtr = std::shared_ptr<const Level>;

  LevelPtr level_for(int scope, uint64_t signature, const std::vector<LevelPtr>& levels, const FoldMap& map,
                     ScopedLayout& out);
  /// Per scope: whether its level is drawn (open inside open scopes, not folded away, no run's box).
  std::vector<bool> open_levels(const ScopeExpansion& expansion, const FoldMap& map) const;
  /// Whether the dependency between two items of a level runs between two instances of a fold.
  bool between_instances(int level, int from, int to, const FoldMap& map) const;
  /// An item's position in its level, or its stand-in's when it is a folded member not drawn.
  int drawn_position(int level, int position, const std::vector<int>& stand_in) const;
  Size frame_size(const Level& level) const;
  Size collapsed_size(int scope) const;

  const ir::Graph& graph_;
  const ir::ModuleHierarchy& hierarchy_;
  std::vector<ir::Node*> nodes_;
  ScopedLayoutOptions options_;
  std::vector<int> home_;
  std::vector<bool> shown_;
  std::vector<bool> drawn_;                    // per scope
  std::vector<std::vector<DrawnItem>> items_;  // per scope: its level's items, in program order
  std::vector<int> position_of_node_;          // a node's position in its home's level
  std::vector<int> position_of_scope_;         // a scope's position in its parent's level
  std::vector<std::vector<int>> level_dependencies_;  // per scope: indices into dependencies_
  std::vector<Dependency> dependencies_;       // drawn node -> drawn node, consumer order

  mutable std::mutex mutex_;
  std::map<std::pair<int, uint64_t>, LevelPtr> cache_;
  size_t laid_out_total_ = 0;
};

}  // namespace exportlens::layout

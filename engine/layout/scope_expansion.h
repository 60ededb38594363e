#pragma once
// Which module scopes a view shows open: the root always, any other scope
// drawn as its parts when it is expanded, as one box when it is collapsed.
// A scope inside a collapsed one is hidden whatever its own state.
#include <cstddef>
#include <vector>

#include "engine/ir/module_hierarchy.h"

namespace exportlens::layout {

class ScopeExpansion {
 public:
  ScopeExpansion() = default;
  /// Only the root open.
  explicit ScopeExpansion(size_t scopes) : open_(scopes, false) {}
  /// Every scope up to `depth` open (0: the top-level modules are boxes).
  static ScopeExpansion to_depth(const ir::ModuleHierarchy& hierarchy, int depth);
  static ScopeExpansion everything(const ir::ModuleHierarchy& hierarchy);

  size_t size() const { return open_.size(); }
  bool is_expanded(int scope) const;
  void set_expanded(int scope, bool open);
  /// Opens every scope around `scope` (not `scope` itself) so it is drawn.
  /// Returns whether anything changed.
  bool reveal(const ir::ModuleHierarchy& hierarchy, int scope);
  /// True when `scope` and all scopes around it are open (its parts are drawn).
  bool is_open_all_the_way(const ir::ModuleHierarchy& hierarchy, int scope) const;
  /// True when `scope` is drawn, as a box or open (every scope around it is open).
  bool is_visible(const ir::ModuleHierarchy& hierarchy, int scope) const;
  /// The deepest open scope's depth among the visible ones.
  int depth_shown(const ir::ModuleHierarchy& hierarchy) const;

  friend bool operator==(const ScopeExpansion&, const ScopeExpansion&) = default;

 private:
  std::vector<bool> open_;
};

}  // namespace exportlens::layout

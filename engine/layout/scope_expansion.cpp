#include "engine/layout/scope_expansion.h"

#include <algorithm>

namespace exportlens::layout {

ScopeExpansion ScopeExpansion::to_depth(const ir::ModuleHierarchy& hierarchy, int depth) {
  ScopeExpansion e(hierarchy.size());
  for (size_t s = 1; s < hierarchy.size(); ++s) e.open_[s] = hierarchy[static_cast<int>(s)].depth <= depth;
  return e;
}

ScopeExpansion ScopeExpansion::everything(const ir::ModuleHierarchy& hierarchy) {
  return to_depth(hierarchy, hierarchy.max_depth());
}

bool ScopeExpansion::is_expanded(int scope) const {
  if (scope == ir::ModuleHierarchy::kRoot) return true;
  return scope > 0 && static_cast<size_t>(scope) < open_.size() && open_[scope];
}

void ScopeExpansion::set_expanded(int scope, bool open) {
  if (scope <= 0) return;
  if (static_cast<size_t>(scope) >= open_.size()) open_.resize(scope + 1, false);
  open_[scope] = open;
}

bool ScopeExpansion::reveal(const ir::ModuleHierarchy& hierarchy, int scope) {
  if (open_.size() < hierarchy.size()) open_.resize(hierarchy.size(), false);
  bool changed = false;
  for (int s = hierarchy[scope].parent; s > ir::ModuleHierarchy::kRoot; s = hierarchy[s].parent) {
    changed = changed || !open_[s];
    open_[s] = true;
  }
  return changed;
}

bool ScopeExpansion::is_open_all_the_way(const ir::ModuleHierarchy& hierarchy, int scope) const {
  for (int s = scope; s >= 0; s = hierarchy[s].parent)
    if (!is_expanded(s)) return false;
  return true;
}

bool ScopeExpansion::is_visible(const ir::ModuleHierarchy& hierarchy, int scope) const {
  return scope == ir::ModuleHierarchy::kRoot || is_open_all_the_way(hierarchy, hierarchy[scope].parent);
}

int ScopeExpansion::depth_shown(const ir::ModuleHierarchy& hierarchy) const {
  int depth = 0;
  for (size_t s = 1; s < hierarchy.size(); ++s)
    if (is_open_all_the_way(hierarchy, static_cast<int>(s))) depth = std::max(depth, hierarchy[static_cast<int>(s)].depth);
  return depth;
}

}  // namespace exportlens::layout

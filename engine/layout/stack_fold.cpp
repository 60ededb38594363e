#include "engine/layout/stack_fold.h"

#include <algorithm>

namespace exportlens::layout {

std::vector<int> fold_stand_ins(const ir::ModuleHierarchy& hierarchy, const StackFolds& folds,
                                const std::vector<bool>& drawn) {
  const int scopes = static_cast<int>(hierarchy.size());
  std::vector<int> stand_in(hierarchy.size(), -1);
  auto valid = [&](int s) { return s > ir::ModuleHierarchy::kRoot && s < scopes && drawn[s]; };
  for (const StackFold& fold : folds) {
    if (fold.members.size() < 2 || !valid(fold.shown) ||
        std::find(fold.members.begin(), fold.members.end(), fold.shown) == fold.members.end())
      continue;
    const int parent = hierarchy[fold.shown].parent;
    const bool siblings = std::all_of(fold.members.begin(), fold.members.end(), [&](int s) {
      return valid(s) && hierarchy[s].parent == parent && stand_in[s] < 0;
    });
    if (!siblings) continue;
    for (int s : fold.members)
      if (s != fold.shown) stand_in[s] = fold.shown;
  }
  return stand_in;
}

}  // namespace exportlens::layout

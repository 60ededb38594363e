#include "engine/layout/stack_fold.h"

#include <algorithm>
#include <numeric>

namespace exportlens::layout {
namespace {

// A fold's instances, each as its scopes (one call each when it has no units).
std::vector<std::vector<int>> instances_of(const StackFold& fold) {
  if (!fold.units.empty()) return fold.units;
  std::vector<std::vector<int>> out;
  for (int m : fold.members) out.push_back({m});
  return out;
}

}  // namespace

bool FoldMap::between_instances(int a, int b) const {
  if (a < 0 || b < 0 || a >= int(instance_of.size()) || b >= int(instance_of.size())) return false;
  for (const auto& [fold, instance] : instance_of[a])
    for (const auto& [other_fold, other_instance] : instance_of[b])
      if (fold == other_fold && instance != other_instance) return true;
  return false;
}

FoldMap fold_map(const ir::ModuleHierarchy& hierarchy, const StackFolds& folds, const std::vector<bool>& drawn) {
  const int scopes = static_cast<int>(hierarchy.size());
  FoldMap map;
  map.stand_in.assign(hierarchy.size(), -1);
  map.box.assign(hierarchy.size(), Size{});
  map.closed.assign(hierarchy.size(), false);
  map.instance_of.assign(hierarchy.size(), {});
  auto valid = [&](int s) { return s > ir::ModuleHierarchy::kRoot && s < scopes && drawn[s]; };

  // The larger fold first: a stack of groups takes its scopes before the
  // stacks inside one group (which then fold within the instance shown).
  std::vector<size_t> order(folds.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto covered = [&](size_t f) {
    return folds[f].units.empty() ? folds[f].members.size() : folds[f].units.size() * folds[f].units.front().size();
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return (folds[a].units.empty() ? 0 : 1) > (folds[b].units.empty() ? 0 : 1) ||
           ((folds[a].units.empty() == folds[b].units.empty()) && covered(a) > covered(b));
  });

  for (size_t f : order) {
    const StackFold& fold = folds[f];
    const auto instances = instances_of(fold);
    const auto shown_at = std::find(fold.members.begin(), fold.members.end(), fold.shown);
    if (instances.size() < 2 || instances.size() != fold.members.size() || shown_at == fold.members.end() ||
        !valid(fold.shown))
      continue;
    const size_t shown = static_cast<size_t>(shown_at - fold.members.begin());
    const int parent = hierarchy[fold.shown].parent;
    const size_t period = instances.front().size();
    bool fits = period > 0;
    for (size_t i = 0; fits && i < instances.size(); ++i) {
      fits = instances[i].size() == period && instances[i].front() == fold.members[i];
      for (int s : instances[i])
        fits = fits && valid(s) && hierarchy[s].parent == parent && map.stand_in[s] < 0;
    }
    if (!fits) continue;

    const bool one_box = period == 1 || !fold.open;
    const std::vector<int>& drawn_instance = instances[shown];
    for (size_t i = 0; i < instances.size(); ++i)
      for (size_t p = 0; p < period; ++p) {
        const int s = instances[i][p];
        if (period > 1) map.instance_of[s].emplace_back(static_cast<int>(f), static_cast<int>(i));
        const int drawn_as = one_box ? fold.shown : drawn_instance[p];
        if (s != drawn_as) map.stand_in[s] = drawn_as;
      }
    if (one_box) map.box[fold.shown] = fold.box;
    if (period > 1 && one_box) map.closed[fold.shown] = true;
  }

  // A fold inside the instance shown of a larger one moves what that one
  // put on its members: follow to the scope drawn in the end.
  for (int s = 0; s < scopes; ++s) {
    int to = map.stand_in[s];
    for (int hops = 0; to >= 0 && map.stand_in[to] >= 0 && hops < scopes; ++hops) to = map.stand_in[to];
    map.stand_in[s] = to;
  }
  return map;
}

}  // namespace exportlens::layout

#pragma once
// A run of sibling scopes drawn as one: a stack of identical layers is one
// box, "6 × Block", not six. One instance of the run stands for all of it —
// its box when collapsed, its frame when open, so opening the stack shows
// that one instance — and the other instances are not drawn; what flows into
// or out of them is drawn to the one shown, and what flows between the
// instances stays inside. Which instance is shown is the viewer's choice (the
// first, or the one a selection lies in).
//
// An instance may be several sibling calls no module groups (the
// 3 × [2 × ConvBlock, Mixer] of a stage calling two blocks then a mixer, three
// times): collapsed, the shown instance's first call is the one box standing
// for the run; open, the shown instance's calls are drawn each as itself and
// every other instance's call is drawn as the shown one at its place.
#include <cstddef>
#include <utility>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/layout/geometry.h"

namespace exportlens::layout {

struct StackFold {
  std::vector<int> members;  // each instance's (first) scope, sibling scopes in program order
  int shown = -1;            // the instance drawn: one of `members`
  /// The box standing for the run while collapsed (it says more than the
  /// member alone); empty: the member's own box.
  Size box;
  /// Instances of several calls each: per instance its sibling scopes, in
  /// program order, `members[i]` first, every instance as long. Empty: one
  /// call per instance (the members).
  std::vector<std::vector<int>> units;
  /// With `units`: the shown instance's calls drawn one by one (else one box).
  bool open = false;
};

using StackFolds = std::vector<StackFold>;

/// What the folds in effect do to the scopes of one hierarchy.
struct FoldMap {
  /// Per scope: the scope drawn in its place when a fold hides it, else -1.
  std::vector<int> stand_in;
  /// Per scope: the box it stands for its run with (empty: its own box).
  std::vector<Size> box;
  /// Per scope: drawn as a box whatever the expansion says (a run of
  /// several calls per instance, collapsed, drawn as its first call).
  std::vector<bool> closed;
  /// Per scope: (fold, instance) for every fold of several calls per instance it is part of.
  std::vector<std::vector<std::pair<int, int>>> instance_of;

  /// Whether a dependency between these two sibling scopes runs from one
  /// instance of a fold to another (it is not drawn: it stays inside the stack).
  bool between_instances(int a, int b) const;
};

/// The folds in effect and what they hide. Folds whose members are not
/// siblings, whose shown scope is no member, whose instances differ in
/// length, or which take a scope another fold already hides (the larger fold
/// first) are ignored; so are folds with a scope `drawn` says is not drawn.
FoldMap fold_map(const ir::ModuleHierarchy& hierarchy, const StackFolds& folds, const std::vector<bool>& drawn);

}  // namespace exportlens::layout

#pragma once
// A run of sibling scopes drawn as one: a stack of identical layers is one
// box, "6 × Block", not six. One member of the run stands for all of it — its
// box when collapsed, its frame when open, so opening the stack shows that
// one instance — and the other members are not drawn; what flows into or out
// of them is drawn to the one shown, and what flows between the members stays
// inside. Which member is shown is the viewer's choice (the first instance,
// or the one a selection lies in).
#include <cstddef>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/layout/geometry.h"

namespace exportlens::layout {

struct StackFold {
  std::vector<int> members;  // sibling scopes, in program order
  int shown = -1;            // the member drawn; one of `members`
  /// The shown member's box while collapsed, standing for the run (it says
  /// more than the member alone); empty: the member's own box.
  Size box;

};

using StackFolds = std::vector<StackFold>;

/// Per scope: the member drawn for it when it is a hidden member of a fold,
/// else -1. Folds whose members are not siblings, or whose shown scope is no
/// member, are ignored; so are members `drawn` says are not drawn.
std::vector<int> fold_stand_ins(const ir::ModuleHierarchy& hierarchy, const StackFolds& folds,
                                const std::vector<bool>& drawn);

}  // namespace exportlens::layout

#pragma once
// The settings of a stack whose instances are each configured differently:
// stages of 2, 2, 6 and 2 blocks at widths 96 to 768 are one layer built
// with other arguments, not four instances that differ from a majority. No
// instance is flagged there; the stack says what varies, as a reader of the
// model's code names it:
//
//   width 16·32·64·128, depth 2·2·6·2 SwinTransformerBlock, downsample PatchMerging in 1, 2, 3
//
// width: the most frequent leading size of the floating-point weights each
// instance reads (its channels); depth: the instances of its first nested
// stack's unit (the blocks.* of a stage); a submodule: a direct child that
// only some instances have, or of another class. What none of these names
// is said by kind (ops, shapes, ...).
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/structure/instance_comparison.h"
#include "engine/structure/repeated_structure.h"

namespace exportlens::structure {

/// The settings of position `position` of a stack's unit, over its repetitions.
std::vector<Setting> stack_settings(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f,
                                    const InstanceComparer& comparer, const std::vector<Stack>& stacks, int stack,
                                    int position);

}  // namespace exportlens::structure

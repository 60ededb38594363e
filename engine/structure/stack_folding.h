#pragma once
// Folding a scope's children into stacks: the longest runs that repeat with
// a period (tandem repeats), found greedily from the left, the one covering
// most children first (the smallest period on a tie), and again inside the
// repeated unit of a stack of period > 1.
//
// Children are compared by a key: the module class and the path with its
// indices left out for the entries of a ModuleList or Sequential (so an odd
// instance stays in its stack and is flagged there), the class and the
// fingerprint for other siblings. Scopes holding only size expressions are
// skipped.
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/structure/repeated_structure.h"
#include "engine/matching/structural_fingerprint.h"

namespace exportlens::structure {

/// Every stack of every scope; reference, representative and identical set.
std::vector<Stack> fold_stacks(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f);

/// Per position of a stack's unit: the reference fingerprint (most frequent,
/// the earliest on a tie) and whether it is a majority (no other as
/// frequent, and held by at least half the instances).
struct StackReference {
  std::vector<uint64_t> fingerprint;
  std::vector<int> first_repetition;  // the first repetition having it
  std::vector<bool> majority;
};
StackReference stack_reference(const Stack& stack, const matching::ScopeFingerprints& f);

}  // namespace exportlens::structure

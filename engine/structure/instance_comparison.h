#pragma once
// One instance of a stack against its reference: which nodes correspond,
// and what differs — submodule classes, the op multiset, parameter and
// buffer shapes, node shapes and dtypes, op attributes, and (when nothing
// else does) the wiring.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/structure/repeated_structure.h"
#include "engine/matching/structural_fingerprint.h"

namespace exportlens::structure {

/// Node pairs (of a, of b): position by position over the canonical order
/// when the fingerprints are equal; otherwise along the longest common
/// subsequence of their ops (Myers' diff), unmatched nodes left out.
std::vector<std::pair<int, int>> align_instances(const matching::ScopeFingerprints& f, int a, int b);

/// What the comparisons read, gathered once per program.
class InstanceComparer {
 public:
  InstanceComparer(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f);
  /// The differences of `scope` from `reference` (empty when they are alike).
  std::vector<Difference> compare(int scope, int reference) const;
  /// The parameters, buffers and constants read inside `scope`, by their
  /// state-dict key below it ("fc1.weight"), with their placeholder nodes.
  std::map<std::string, int> weights_read(int scope) const;
  /// Whether the values entering a and b that are not weights have the same
  /// dtypes and shapes (strides left out), in the order each first reads them.
  bool takes_same_inputs(int a, int b) const;
  const ir::Node& node(int index) const { return *nodes_[static_cast<size_t>(index)]; }

 private:
  Difference submodules(int scope, int reference) const;
  Difference ops(int scope, int reference) const;
  Difference weights(int scope, int reference) const;
  void matched_nodes(int scope, int reference, std::vector<Difference>& out) const;

  const ir::ModuleHierarchy& h_;
  const matching::ScopeFingerprints& f_;
  std::vector<ir::Node*> nodes_;
  std::vector<std::string> weight_target_;  // by node: state-dict key of a parameter/buffer/constant placeholder
};

/// How a value reads in a difference: "f32[s77, 6, 32]", "s77*6", "(f32[2], i64[])".
std::string value_text(const ir::ValueInfo& v);

}  // namespace exportlens::structure

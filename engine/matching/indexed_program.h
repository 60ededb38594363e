#pragma once
// What the matcher reads of one program, gathered once and linear in its
// size: its nodes in graph order, its module calls (ir/module_hierarchy.h)
// with their structural fingerprints, per node a key for its op and one for
// its op, attributes and kind of value (dtype and rank, not the sizes: a
// widened dim or another symbol name keeps the key), and per graph input its
// signature entry. The GUI keeps the hierarchy it browses with and passes it
// in; numerics and the diff index each program once and match it against
// several others.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/matching/structural_fingerprint.h"

namespace exportlens::matching {

class IndexedProgram {
 public:
  /// `program` must outlive this object.
  explicit IndexedProgram(const ir::ExportedProgram& program);
  IndexedProgram(const ir::ExportedProgram& program, std::shared_ptr<const ir::ModuleHierarchy> hierarchy);

  const ir::ExportedProgram& program() const { return *program_; }
  const std::vector<ir::Node*>& nodes() const { return nodes_; }
  const ir::ModuleHierarchy& hierarchy() const { return *hierarchy_; }
  const ScopeFingerprints& fingerprints() const { return fingerprints_; }
  size_t size() const { return nodes_.size(); }

  /// The node's index in this program's graph; -1 for a node of another graph (a subgraph's).
  int index_of(const ir::Node* node) const;
  /// The node's op: its kind and target.
  uint64_t op_key(int node) const { return fingerprints_.node_op[static_cast<size_t>(node)]; }
  /// Its op, attributes (every argument that is not a node) and the dtype and rank of its value.
  uint64_t kind_key(int node) const { return kind_key_[static_cast<size_t>(node)]; }
  /// The signature entry of a graph input (null for other nodes).
  const ir::InputSpec* input_spec(int node) const { return input_spec_[static_cast<size_t>(node)]; }
  /// The graph input that holds the state-dict entry or constant `target`, or -1.
  int input_for_target(const std::string& target) const;
  /// The module call at `path` (its `call`-th call), or -1.
  int scope_at(const std::string& path, int call) const;

 private:
  void index();

  const ir::ExportedProgram* program_;
  std::shared_ptr<const ir::ModuleHierarchy> hierarchy_;
  std::vector<ir::Node*> nodes_;
  ScopeFingerprints fingerprints_;
  std::vector<uint64_t> kind_key_;
  std::vector<const ir::InputSpec*> input_spec_;
  std::unordered_map<std::string, int> input_by_target_;
  std::unordered_map<std::string, int> scope_by_call_;  // "path@call"
};

}  // namespace exportlens::matching

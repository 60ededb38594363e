#pragma once
// A structural fingerprint for every module scope of a program: two scopes
// have the same fingerprint when they compute the same thing the same way —
// the same module class, the same ops in the same order wired the same way,
// the same op attributes, the same shapes, dtypes and strides (symbols made
// inside a scope, such as data-dependent u0, u1, renamed canonically), the
// same parameter and buffer shapes, and the same values crossing the
// boundary, by position.
//
// Computed bottom-up in one pass over the program: a scope's fingerprint
// combines its own nodes and its child scopes' fingerprints, each child
// with the way its inputs are wired in the parent's terms (a node of the
// parent, the k-th output of a sibling, the k-th input of the parent). So
// the cost is linear in the nodes plus the values crossing boundaries.
//
// Size expressions (aten.sym_size.int and Python arithmetic on sizes) are
// transparent: torch makes one per size the first time the trace asks for
// it, in whichever instance asked first, so they would make the first layer
// of every dynamic stack look different. A reference to one is hashed by the
// symbolic value it computes.
#include <cstdint>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"

namespace exportlens::matching {

struct ScopeFingerprints {
  /// One entry of a scope's contents, in program order: a node of its own or a child scope.
  struct Item {
    bool child = false;
    int index = -1;  // node index, or scope index
  };

  std::vector<uint64_t> fingerprint;   // by scope
  std::vector<std::vector<Item>> items;  // by scope: own nodes (size expressions left out) and children
  /// By scope: the values entering it (size expressions left out), in the
  /// order its contents first read them, and those leaving it, in graph order.
  std::vector<std::vector<int>> inputs, outputs;
  /// By node: its op (kind and target); its op and attributes; its value (dtype, shape, strides).
  std::vector<uint64_t> node_op, node_identity, node_value;
  /// By node: size expressions (transparent).
  std::vector<char> size_expression;
  /// By scope: whether anything but size expressions lies inside.
  std::vector<char> has_content;

  /// The scope's nodes in canonical order (items depth first): equal
  /// fingerprints give sequences that correspond position by position.
  std::vector<int> canonical_nodes(int scope) const;
};

/// Fingerprints of every scope of `hierarchy` (built over `program`'s graph).
ScopeFingerprints fingerprint_scopes(const ir::ExportedProgram& program, const ir::ModuleHierarchy& hierarchy);

}  // namespace exportlens::matching

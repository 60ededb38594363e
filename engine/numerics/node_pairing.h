#pragma once
// Which node of run B is compared with which node of run A. Two runs of one
// program pair every node with itself; a program lowered from another (Core
// ATen from training) pairs each exported node with the last node of its
// decomposition that makes the same value, through provenance; values
// recorded outside pair by node name. Another program altogether pairs
// through the structural node matching diff uses (engine/matching).
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::numerics {

struct NodePair {
  std::string a, b;  // node names in A's and B's graphs
  // The nodes themselves, where the pairing read them from the graphs
  // NodePairing names (a run then finds them without a name lookup).
  const ir::Node* a_node = nullptr;
  const ir::Node* b_node = nullptr;
};

struct NodePairing {
  std::vector<NodePair> pairs;  // in A's graph order
  std::string basis;            // how they were paired, for the report
  int unpaired = 0;             // A nodes with a value and no counterpart in B
  // The graphs the pairs' nodes are in (null: names only, as for recorded values).
  const ir::Graph* a_graph = nullptr;
  const ir::Graph* b_graph = nullptr;
};

/// Whether a node's value is something a numerics run compares: a tensor or a symbolic scalar.
bool comparable(const ir::Node& node);

/// Every compared node of `program` with itself.
NodePairing same_graph(const ir::ExportedProgram& program);

/// `lowered` made from `exported` by the passes (functional, Core ATen, a
/// table): each node of `exported` with the last node of `lowered` whose
/// provenance ends at it and whose value has its dtype and shape.
NodePairing by_provenance(const ir::ExportedProgram& exported, const ir::ExportedProgram& lowered);

/// Two programs neither made from the other (a quantized one and its float
/// one, two exports): paired by the matching `exportlens diff` uses
/// (engine/matching: module calls, structure, alignment; names do not
/// matter), where the values have the same shape.
NodePairing by_matching(const ir::ExportedProgram& a, const ir::ExportedProgram& b);

/// `program`'s nodes with the recorded values named after them.
NodePairing by_name(const ir::ExportedProgram& program, const std::vector<std::string>& recorded);

}  // namespace exportlens::numerics

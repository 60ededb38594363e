#pragma once
// One matched pair of nodes: what differs. The op (another op, or another
// overload of it); each argument by name (call_arguments.h): a constant by
// its text (an argument left out: its default), a node by the matching (it reads another matched value; a value
// only one program has is an insertion or a removal, reported as such, not
// as a change here); the value's dtype, sizes and strides, A's symbols read
// in B's terms (symbol_correspondence.h).
#include "engine/diff/call_arguments.h"
#include "engine/diff/program_diff.h"
#include "engine/diff/symbol_correspondence.h"

namespace exportlens::diff {

class NodeComparison {
 public:
  NodeComparison(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                 const matching::ProgramMatching& m, const SymbolCorrespondence& symbols,
                 ir::OpSignatureLookup signatures);
  /// Status Same or Changed with its changes.
  NodeDiff compare(int node_a, int node_b) const;

 private:
  void arguments(const ir::Node& x, const ir::Node& y, NodeDiff& d) const;
  void argument(const std::string& what, const ir::Argument& x, const ir::Argument& y, NodeDiff& d) const;
  void value(const std::string& what, const ir::ValueInfo& x, const ir::ValueInfo& y, NodeDiff& d) const;

  const matching::IndexedProgram& a_;
  const matching::IndexedProgram& b_;
  const matching::ProgramMatching& m_;
  const SymbolCorrespondence& symbols_;
  CallSchemas schemas_;
};

/// Records a change in `d` (its aspect flag too).
void add_change(NodeDiff& d, Aspect aspect, std::string what, std::string before, std::string after);

}  // namespace exportlens::diff

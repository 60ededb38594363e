#pragma once
// A's shape symbols in B's terms. Two exports name the symbol of one input
// dim differently (`s0` up to torch 2.7, `s77` since; `u0` and `u3` for
// the same .item()), so sizes are compared after reading each of A's symbols
// as what sizes the same place in B: the matched nodes' values, inputs
// first, dim by dim. A dim B has static reads as its number, so a program
// exported with a static batch differs in its input alone, not in every node.
// A size derived from one symbol (`4*s1` against `4*s95`) names it too.
#include <map>
#include <string>

#include "engine/matching/program_matching.h"

namespace exportlens::diff {

class SymbolCorrespondence {
 public:
  SymbolCorrespondence(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                       const matching::ProgramMatching& m);
  /// An expression of A's, in B's symbols.
  symbolic::Expr in_b(const symbolic::Expr& e) const;
  bool same(const ir::SymInt& a, const ir::SymInt& b) const { return in_b(a.expr) == b.expr; }
  /// Text mentioning A's symbols (an assert's message), with them named as B names them.
  std::string in_b_text(const std::string& text) const;
  /// "s0 -> s77", one per line (empty when A and B name their symbols alike).
  std::string describe() const;

 private:
  void read(const ir::ValueInfo& a, const ir::ValueInfo& b);
  void read(const ir::SymInt& a, const ir::SymInt& b);
  std::map<std::string, symbolic::Expr> to_b_;
};

}  // namespace exportlens::diff

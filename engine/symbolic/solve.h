#pragma once
// torch's try_solve for our canonical expressions: isolate one symbol of a
// relation on the left ("s0 - 2 <= s1" for s0 gives "s0 <= s1 + 2"). Only
// linear occurrences with an integer coefficient are solved; a solution
// that is not an integer expression (s0 = s1/2) keeps its denominator.
#include <cstdint>
#include <optional>

#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

struct Isolated {
  Expr::Kind relation;  // symbol RELATION rhs / denominator
  Expr rhs;
  int64_t denominator = 1;  // > 0; 1 when the solution is an integer expression
  bool integral() const { return denominator == 1; }
};

/// `floordiv_inequality`: also solve (a // d) >= q as a >= q*d (torch's flag).
std::optional<Isolated> isolate(const Expr& relation, const Expr& symbol, bool floordiv_inequality);

/// Whether `thing` (a symbol or any subexpression) occurs in e.
bool contains_symbol(const Expr& e, const Expr& thing);
bool is_relation(Expr::Kind kind);
/// The relation with sides swapped (Le <-> Ge, Lt <-> Gt).
Expr::Kind mirrored(Expr::Kind kind);
Expr make_relation(Expr::Kind kind, const Expr& lhs, const Expr& rhs);
/// e / c when every term's coefficient is divisible by c.
std::optional<Expr> divide_exactly(const Expr& e, int64_t c);

}  // namespace exportlens::symbolic

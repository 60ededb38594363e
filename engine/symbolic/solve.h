#pragma once
// torch's try_solve for our canonical expressions: isolate one symbol of a
// relation on the left ("s0 - 2 <= s1" for s0 gives "s0 <= s1 + 2"). Only
// linear occurrences with an integer coefficient are solved; a solution
// that is not an integer expression (s0 = s1/2) keeps its denominator.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

struct Isolated {
  Expr::Kind relation;  // symbol RELATION rhs / denominator
  Expr rhs;
  int64_t denominator = 1;  // > 0; 1 when the solution is an integer expression
  bool integral() const { return denominator == 1; }
};

/// Whether a symbol is a positive integer for sympy (torch's backed sizes).
using PositiveSymbol = std::function<bool(const std::string&)>;

/// `floordiv_inequality`: also solve (a // d) >= q as a >= q*d (torch's flag).
/// (a // d) == q becomes a >= q*d and a < (q+1)*d, (a // d) != q becomes
/// a < q*d or a >= (q+1)*d: as in torch, sympy drops the half that the
/// symbols' positivity (`positive`) decides, and the other half is solved on
/// ((s - 1) // 32) == 0 gives s < 33); when neither half is decided
/// there is no solution.
std::optional<Isolated> isolate(const Expr& relation, const Expr& symbol, bool floordiv_inequality,
                                const PositiveSymbol& positive = {});

/// Whether `thing` (a symbol or any subexpression) occurs in e.
bool contains_symbol(const Expr& e, const Expr& thing);
bool is_relation(Expr::Kind kind);
/// The relation with sides swapped (Le <-> Ge, Lt <-> Gt).
Expr::Kind mirrored(Expr::Kind kind);
Expr make_relation(Expr::Kind kind, const Expr& lhs, const Expr& rhs);
/// e / c when every term's coefficient is divisible by c.
std::optional<Expr> divide_exactly(const Expr& e, int64_t c);

}  // namespace exportlens::symbolic

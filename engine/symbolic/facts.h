#pragma once
// A small imitation of sympy's assumption system for integer expressions:
// the sign and parity facts that sympy's automatic evaluation relies on
// (relations folding to True/False, Max(s0, 1) -> s0, Mod(p, q) -> p, ...).
// Unknown stays unknown; we never decide more than sympy would.
#include <optional>

namespace exportlens::symbolic {

class Expr;
using Fuzzy = std::optional<bool>;

struct Facts {
  Fuzzy positive, negative, zero, nonnegative, nonpositive, even, odd;
};

/// Facts of a node whose args already carry theirs.
Facts compute_facts(const Expr& e);

}  // namespace exportlens::symbolic

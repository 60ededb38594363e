#pragma once
// The immutable node behind Expr, and the canonicalizing constructors
// (ExprBuilder) every public operation goes through. Private to el_symbolic.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/facts.h"
#include "engine/symbolic/number.h"
#include "engine/symbolic/sort_key.h"

namespace exportlens::symbolic {

/// Which sympy class a node stands for where one Kind covers several that
/// print alike but keep their own name in srepr (CleanDiv) or str (PythonMod).
enum class Flavor : uint8_t { Plain, CleanDiv, PythonMod };

/// A Symbol's assumptions as sympy's srepr lists them, in order.
using Assumptions = std::vector<std::pair<std::string, bool>>;

class ExprNode {
 public:
  Expr::Kind kind = Expr::Kind::Integer;
  Num number;               // Integer and Infinity
  std::string name;         // Symbol
  Assumptions assumptions;  // Symbol
  Flavor flavor = Flavor::Plain;
  std::vector<Expr> args;
  // Derived once at construction.
  size_t hash = 0;
  int64_t node_count = 1;  // sympy's _node_count, the first key of ordered()
  uint32_t kinds = 0;       // bit k: a node of Kind k occurs in this expression (contains_kind)
  SortKeyPtr sort_key;
  Facts facts;
  // The free symbols' names, sorted; null when there are none. A node whose
  // args name the same symbols shares the arg's list, so a kilobyte-long
  // guard answers free_symbols() without walking its thousands of nodes.
  std::shared_ptr<const std::vector<std::string>> symbols;
};

struct ExprBuilder {
  // Leaves.
  static Expr number(Num n);
  static Expr symbol(std::string name, Assumptions assumptions);
  static Assumptions default_assumptions(const std::string& name);
  static Expr boolean(bool value);

  // Arithmetic (canonicalizing, sympy's automatic evaluation).
  static Expr add(std::vector<Expr> terms);
  static Expr mul(std::vector<Expr> factors);
  static Expr pow(const Expr& base, int64_t exponent);
  static Expr floordiv(const Expr& a, const Expr& b, Flavor flavor = Flavor::Plain);
  static Expr mod(const Expr& a, const Expr& b, Flavor flavor);
  /// Python's a % b as torch's SymInt builds it: Mod when both operands are
  /// known non-negative, PythonMod otherwise.
  static Expr torch_mod(const Expr& a, const Expr& b);
  static Expr min_max(Expr::Kind kind, std::vector<Expr> args);

  // Booleans.
  static Expr relation(Expr::Kind kind, const Expr& a, const Expr& b);
  static Expr logic(Expr::Kind kind, std::vector<Expr> args);  // And / Or
  static Expr logical_not(const Expr& a);

  /// A node exactly as given (args already canonical and ordered).
  static Expr raw(Expr::Kind kind, std::vector<Expr> args, Flavor flavor = Flavor::Plain);
  static Expr finish(std::shared_ptr<ExprNode> node);
};

// Small helpers shared by the canonicalization files.
inline const ExprNode& N(const Expr& e) { return *e.node(); }
inline bool is_number(const Expr& e) {
  return e.kind() == Expr::Kind::Integer || e.kind() == Expr::Kind::Infinity;
}
inline const Num& num(const Expr& e) { return N(e).number; }
inline const Facts& facts(const Expr& e) { return N(e).facts; }
/// Whether a node of `kind` occurs anywhere in e, without walking it.
inline bool contains_kind(const Expr& e, Expr::Kind kind) { return (N(e).kinds >> unsigned(kind)) & 1u; }
inline bool is_true(const Fuzzy& f) { return f.has_value() && *f; }
inline bool is_false(const Fuzzy& f) { return f.has_value() && !*f; }
inline Fuzzy negated(Fuzzy f) { return f ? Fuzzy(!*f) : std::nullopt; }
/// The relation that holds exactly when one of `kind` does not (Lt -> Ge).
Expr::Kind negation(Expr::Kind kind);

/// term = coefficient * body (sympy's as_coeff_Mul); body is 1 for numbers.
std::pair<Num, Expr> split_coefficient(const Expr& term);
/// The factors of a product without its coefficient (Mul.make_args).
std::vector<Expr> factors_of(const Expr& body);
/// The terms of a sum (Add.make_args).
std::vector<Expr> terms_of(const Expr& e);
/// factor = base ** exponent (sympy's decompose_power for our subset).
std::pair<Expr, int64_t> split_power(const Expr& factor);
Expr multiply_by(const Num& c, const Expr& e);

}  // namespace exportlens::symbolic

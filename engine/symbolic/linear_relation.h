#pragma once
// Small exact rational arithmetic for the univariate linear constraints
// torch's DimConstraints solves (a*s + b REL 0), and the congruences it keeps.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/number.h"

namespace exportlens::symbolic::constraints {

struct Rational {
  int64_t num = 0, den = 1;
  static Rational of(int64_t n, int64_t d = 1) {
    if (d < 0) n = -n, d = -d;
    const int64_t g = std::max<int64_t>(1, gcd(n < 0 ? -n : n, d));
    return {n / g, d / g};
  }
  bool zero() const { return num == 0; }
  bool negative() const { return num < 0; }
  bool integral() const { return den == 1; }
  int64_t floor() const { return floor_div(num, den); }
  int64_t ceil() const { return -floor_div(-num, den); }
};
inline Rational operator+(Rational a, Rational b) { return Rational::of(a.num * b.den + b.num * a.den, a.den * b.den); }
inline Rational operator*(Rational a, Rational b) { return Rational::of(a.num * b.num, a.den * b.den); }
inline Rational operator-(Rational a) { return {-a.num, a.den}; }

struct Linear {  // a*s + b
  Rational a, b;
};

struct Congruence {  // base % divisor == 0
  Expr base;
  int64_t divisor = 1;
};

struct LinearRelation {
  Expr::Kind kind;
  Linear form;  // form REL 0
};

/// What sympy's assumptions decide of a*s + b REL 0 for a positive integer
/// symbol s (s >= 1 alone): the value at s = 1 is the minimum when a > 0 and
/// the maximum when a < 0; nullopt where sympy leaves the relation unevaluated.
inline std::optional<bool> truth_for_positive_symbol(const LinearRelation& r) {
  using K = Expr::Kind;
  const Rational at_one = r.form.a + r.form.b;
  const bool increasing = !r.form.a.negative();
  const bool positive = increasing && !at_one.negative() && !at_one.zero();
  const bool nonnegative = increasing && !at_one.negative();
  const bool negative = !increasing && at_one.negative();
  const bool nonpositive = !increasing && (at_one.negative() || at_one.zero());
  // Ne, Le and Lt are decided as the negations of Eq, Gt and Ge.
  const bool negative_form = r.kind == K::Ne || r.kind == K::Le || r.kind == K::Lt;
  std::optional<bool> holds;
  switch (negative_form ? negation(r.kind) : r.kind) {
    case K::Eq:
      if (positive || negative) holds = false;
      break;
    case K::Ge:
      if (nonnegative) holds = true;
      else if (negative) holds = false;
      break;
    case K::Gt:
      if (positive) holds = true;
      else if (nonpositive) holds = false;
      break;
    default: break;
  }
  return negative_form ? negated(holds) : holds;
}

}  // namespace exportlens::symbolic::constraints

#pragma once
// Small exact rational arithmetic for the univariate linear constraints
// torch's DimConstraints solves (a*s + b REL 0), and the congruences it keeps.
#include <algorithm>
#include <cstdint>

#include "engine/symbolic/expr.h"
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

}  // namespace exportlens::symbolic::constraints

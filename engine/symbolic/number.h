#pragma once
// A sympy number as it appears in shape expressions: an int64 or +-int_oo.
// Arithmetic is checked: overflow and indeterminate forms (int_oo - int_oo,
// 0 * int_oo) throw instead of wrapping or producing nan.
#include <cstdint>
#include <string>

namespace exportlens::symbolic {

struct Num {
  int64_t value = 0;  // meaningful when infinity == 0
  int infinity = 0;   // +1 for int_oo, -1 for -int_oo

  static Num integer(int64_t v) { return Num{v, 0}; }
  static Num infinite(int sign) { return Num{0, sign < 0 ? -1 : 1}; }

  bool is_infinite() const { return infinity != 0; }
  bool is_zero() const { return infinity == 0 && value == 0; }
  bool is_one() const { return infinity == 0 && value == 1; }
  bool is_negative() const { return infinity < 0 || (infinity == 0 && value < 0); }
  bool is_positive() const { return infinity > 0 || (infinity == 0 && value > 0); }
  std::string str() const;

  friend bool operator==(const Num& a, const Num& b) {
    return a.infinity == b.infinity && (a.infinity != 0 || a.value == b.value);
  }
};

/// -1, 0, +1 like a three-way numeric comparison (int_oo above every integer).
int compare(const Num& a, const Num& b);
Num add(const Num& a, const Num& b);
Num negate(const Num& a);
Num multiply(const Num& a, const Num& b);
/// Python's floor division and modulo (sign of the divisor); finite operands only.
int64_t floor_div(int64_t a, int64_t b);
int64_t python_mod(int64_t a, int64_t b);
int64_t checked_pow(int64_t base, int64_t exponent);
int64_t gcd(int64_t a, int64_t b);

}  // namespace exportlens::symbolic

#include "engine/symbolic/number.h"

#include <stdexcept>

namespace exportlens::symbolic {

namespace {
[[noreturn]] void overflow(const char* op) {
  throw std::overflow_error(std::string("symbolic integer overflow in ") + op);
}
}  // namespace

std::string Num::str() const {
  if (infinity > 0) return "int_oo";
  if (infinity < 0) return "-int_oo";
  return std::to_string(value);
}

int compare(const Num& a, const Num& b) {
  if (a.infinity != b.infinity) return a.infinity < b.infinity ? -1 : 1;
  if (a.infinity != 0) return 0;
  return a.value < b.value ? -1 : (a.value > b.value ? 1 : 0);
}

Num add(const Num& a, const Num& b) {
  if (a.is_infinite() || b.is_infinite()) {
    if (a.is_infinite() && b.is_infinite() && a.infinity != b.infinity)
      throw std::domain_error("int_oo - int_oo is undefined");
    return Num::infinite(a.is_infinite() ? a.infinity : b.infinity);
  }
  int64_t r;
  if (__builtin_add_overflow(a.value, b.value, &r)) overflow("addition");
  return Num::integer(r);
}

Num negate(const Num& a) {
  if (a.is_infinite()) return Num::infinite(-a.infinity);
  int64_t r;
  if (__builtin_sub_overflow(int64_t{0}, a.value, &r)) overflow("negation");
  return Num::integer(r);
}

Num multiply(const Num& a, const Num& b) {
  if (a.is_infinite() || b.is_infinite()) {
    if (a.is_zero() || b.is_zero()) throw std::domain_error("0 * int_oo is undefined");
    const int sign = (a.is_negative() ? -1 : 1) * (b.is_negative() ? -1 : 1);
    return Num::infinite(sign);
  }
  int64_t r;
  if (__builtin_mul_overflow(a.value, b.value, &r)) overflow("multiplication");
  return Num::integer(r);
}

int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("division by zero");
  if (b == -1) {
    int64_t r;
    if (__builtin_sub_overflow(int64_t{0}, a, &r)) overflow("floor division");
    return r;
  }
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t python_mod(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

int64_t checked_pow(int64_t base, int64_t exponent) {
  if (exponent < 0) throw std::domain_error("negative exponent in an integer expression");
  if (base == 0) return exponent == 0 ? 1 : 0;
  if (base == 1) return 1;
  if (base == -1) return exponent % 2 == 0 ? 1 : -1;
  int64_t result = 1;  // |base| >= 2 overflows within 63 steps
  for (int64_t i = 0; i < exponent; ++i) {
    if (__builtin_mul_overflow(result, base, &result)) overflow("power");
  }
  return result;
}

int64_t gcd(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace exportlens::symbolic

#pragma once
// Integer value ranges [lower, upper] with -int_oo/int_oo ends (torch's
// ValueRanges over integers) and bound propagation through an expression
// (torch's bound_sympy): the smallest range this interval arithmetic can
// prove for an expression given ranges of its symbols. No LibTorch, no Qt.
#include <cstdint>
#include <functional>
#include <string>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/number.h"

namespace exportlens::symbolic {

class SolveMemo;

struct ValueRange {
  Num lower = Num::infinite(-1);
  Num upper = Num::infinite(1);

  static ValueRange unknown() { return {}; }
  static ValueRange exactly(int64_t v) { return {Num::integer(v), Num::integer(v)}; }
  static ValueRange between(Num lo, Num hi) { return {lo, hi}; }
  static ValueRange at_least(int64_t lo) { return {Num::integer(lo), Num::infinite(1)}; }
  /// Booleans as torch ranges them: False = 0, True = 1.
  static ValueRange boolean(bool can_be_false, bool can_be_true);

  bool is_empty() const { return compare(lower, upper) > 0; }
  bool is_singleton() const { return !lower.is_infinite() && lower == upper; }
  bool contains(int64_t v) const;
  bool is_subset_of(const ValueRange& other) const;
  ValueRange intersect(const ValueRange& other) const;
  /// "[2, int_oo]"
  std::string str() const;
  friend bool operator==(const ValueRange& a, const ValueRange& b) {
    return a.lower == b.lower && a.upper == b.upper;
  }
};

/// Range of a symbol; called for every free symbol of the expression.
using RangeOf = std::function<ValueRange(const Expr& symbol)>;

/// Bounds of an integer expression (or of a relation, as a boolean range).
/// `memo` (symbolic/solve_memo.h), when given, keeps relations' differences.
ValueRange bound_expr(const Expr& e, const RangeOf& range_of, SolveMemo* memo = nullptr);

/// Ceil/floor of a rational with int64 parts (den > 0), for requantizing bounds.
int64_t ceil_div(int64_t num, int64_t den);
int64_t floor_div_exact(int64_t num, int64_t den);

}  // namespace exportlens::symbolic

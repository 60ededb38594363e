// Interval arithmetic over canonical expressions. Bounds saturate to +-int_oo
// on overflow (always sound for a bound) instead of throwing.
#include "engine/symbolic/value_range.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/solve_memo.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

Num inf(int sign) { return Num::infinite(sign); }
Num integer(int64_t v) { return Num::integer(v); }

Num add_sat(const Num& a, const Num& b) {
  if (a.is_infinite()) return a;  // -oo + oo cannot occur between a lower and an upper end
  if (b.is_infinite()) return b;
  int64_t r;
  if (__builtin_add_overflow(a.value, b.value, &r)) return inf(a.value < 0 ? -1 : 1);
  return integer(r);
}

Num mul_sat(const Num& a, const Num& b) {
  if (a.is_zero() || b.is_zero()) return integer(0);  // 0 * oo as a bound is 0
  const int sign = (a.is_negative() ? -1 : 1) * (b.is_negative() ? -1 : 1);
  if (a.is_infinite() || b.is_infinite()) return inf(sign);
  int64_t r;
  if (__builtin_mul_overflow(a.value, b.value, &r)) return inf(sign);
  return integer(r);
}

Num neg(const Num& a) {
  if (a.is_infinite()) return inf(-a.infinity);
  if (a.value == INT64_MIN) return inf(1);
  return integer(-a.value);
}

/// floor(a / b) for b != 0 with infinite ends taken as limits.
Num floordiv_num(const Num& a, const Num& b) {
  if (b.is_infinite()) {
    if (a.is_infinite()) return inf(a.infinity * b.infinity);
    const bool same_sign = (a.value >= 0) == (b.infinity > 0);
    return integer(a.value == 0 || same_sign ? 0 : -1);
  }
  if (a.is_infinite()) return inf(a.infinity * (b.value > 0 ? 1 : -1));
  return integer(floor_div(a.value, b.value));
}

const Num& min_num(const Num& a, const Num& b) { return compare(a, b) <= 0 ? a : b; }
const Num& max_num(const Num& a, const Num& b) { return compare(a, b) >= 0 ? a : b; }

ValueRange from_corners(const std::vector<Num>& corners) {
  ValueRange r{corners.front(), corners.front()};
  for (const Num& c : corners) {
    r.lower = min_num(r.lower, c);
    r.upper = max_num(r.upper, c);
  }
  return r;
}

ValueRange add_ranges(const ValueRange& a, const ValueRange& b) {
  return {add_sat(a.lower, b.lower), add_sat(a.upper, b.upper)};
}

ValueRange mul_ranges(const ValueRange& a, const ValueRange& b) {
  return from_corners({mul_sat(a.lower, b.lower), mul_sat(a.lower, b.upper), mul_sat(a.upper, b.lower),
                       mul_sat(a.upper, b.upper)});
}

ValueRange floordiv_ranges(const ValueRange& a, const ValueRange& b) {
  if (compare(b.lower, integer(0)) <= 0 && compare(b.upper, integer(0)) >= 0) return ValueRange::unknown();
  return from_corners({floordiv_num(a.lower, b.lower), floordiv_num(a.lower, b.upper),
                       floordiv_num(a.upper, b.lower), floordiv_num(a.upper, b.upper)});
}

/// torch's ValueRangeAnalysis.mod, which bound_sympy applies to Mod (C
/// semantics on the bounds): a divisor range holding 0 bounds nothing; a
/// constant divisor bounds by the dividend's quotient class; any other divisor
/// only by its largest magnitude. Deliberately no sharper: Mod(1, 160*(w//4))
/// is then undecided as it is for torch, so its guard is issued and reported
/// where torch reports it.
ValueRange mod_ranges(const ValueRange& x, const ValueRange& y) {
  if (compare(y.lower, integer(0)) <= 0 && compare(y.upper, integer(0)) >= 0) return ValueRange::unknown();
  if (y.is_singleton()) {
    const int64_t d = y.lower.value < 0 ? -y.lower.value : y.lower.value;
    // One quotient class (C's truncating / and %, as torch's c_div and c_mod): the map is increasing.
    if (!x.lower.is_infinite() && !x.upper.is_infinite() && x.lower.value / d == x.upper.value / d)
      return {integer(x.lower.value % d), integer(x.upper.value % d)};
    if (compare(x.upper, integer(0)) < 0) return {integer(-d + 1), integer(0)};
    if (compare(x.lower, integer(0)) > 0) return {integer(0), integer(d - 1)};
    return {max_num(integer(-d + 1), x.lower), min_num(integer(d - 1), x.upper)};
  }
  const Num magnitude = max_num(compare(y.lower, integer(0)) < 0 ? negate(y.lower) : y.lower,
                                compare(y.upper, integer(0)) < 0 ? negate(y.upper) : y.upper);
  const Num top = magnitude.is_infinite() ? magnitude : integer(magnitude.value - 1);
  return {negate(top), top};
}

ValueRange pow_range(const ValueRange& base, int64_t exponent) {
  ValueRange r = ValueRange::exactly(1);
  for (int64_t i = 0; i < exponent; ++i) r = mul_ranges(r, base);
  if (exponent % 2 == 0 && compare(base.lower, integer(0)) < 0 && compare(base.upper, integer(0)) > 0)
    r.lower = integer(0);
  else if (exponent % 2 == 0)
    r.lower = max_num(r.lower, integer(0));
  return r;
}

bool can_be_true(const ValueRange& r) { return compare(r.upper, integer(1)) >= 0; }
bool can_be_false(const ValueRange& r) { return compare(r.lower, integer(0)) <= 0; }

/// Decide a relation from the range of lhs - rhs.
ValueRange relation_from_difference(K kind, const ValueRange& d) {
  const bool pos_possible = compare(d.upper, integer(0)) > 0;
  const bool neg_possible = compare(d.lower, integer(0)) < 0;
  const bool zero_possible = d.contains(0);
  switch (kind) {
    case K::Eq: return ValueRange::boolean(pos_possible || neg_possible, zero_possible);
    case K::Ne: return ValueRange::boolean(zero_possible, pos_possible || neg_possible);
    case K::Lt: return ValueRange::boolean(pos_possible || zero_possible, neg_possible);
    case K::Le: return ValueRange::boolean(pos_possible, neg_possible || zero_possible);
    case K::Gt: return ValueRange::boolean(neg_possible || zero_possible, pos_possible);
    case K::Ge: return ValueRange::boolean(neg_possible, pos_possible || zero_possible);
    default: return ValueRange::boolean(true, true);
  }
}

ValueRange narrowest(const ValueRange& a, const ValueRange& b) {
  ValueRange r = a.intersect(b);
  return r.is_empty() ? a : r;
}

/// lhs - rhs of a relation: the solver bounds the same relations again after
/// every guard (recorded guards' attribution), and building the canonical
/// difference is the costly part, so a solve's memo keeps it.
Expr difference(const Expr& relation, SolveMemo* memo) {
  return memo ? memo->difference(relation) : relation.args()[0] - relation.args()[1];
}

ValueRange bound(const Expr& e, const RangeOf& range_of, SolveMemo* memo) {
  const auto& args = e.args();
  switch (e.kind()) {
    case K::Integer: return ValueRange::exactly(*e.as_integer());
    case K::Infinity: {
      const int sign = e == Expr::infinity(true) ? -1 : 1;
      return {inf(sign), inf(sign)};
    }
    case K::Symbol: return range_of(e);
    case K::Add: {
      ValueRange r = ValueRange::exactly(0);
      for (const Expr& a : args) r = add_ranges(r, bound(a, range_of, memo));
      return r;
    }
    case K::Mul: {
      ValueRange r = ValueRange::exactly(1);
      for (const Expr& a : args) r = mul_ranges(r, bound(a, range_of, memo));
      return r;
    }
    case K::Pow: return pow_range(bound(args[0], range_of, memo), *args[1].as_integer());
    case K::FloorDiv: return floordiv_ranges(bound(args[0], range_of, memo), bound(args[1], range_of, memo));
    case K::Mod: return mod_ranges(bound(args[0], range_of, memo), bound(args[1], range_of, memo));
    case K::Max:
    case K::Min: {
      ValueRange r = bound(args[0], range_of, memo);
      for (size_t i = 1; i < args.size(); ++i) {
        const ValueRange b = bound(args[i], range_of, memo);
        if (e.kind() == K::Max) r = {max_num(r.lower, b.lower), max_num(r.upper, b.upper)};
        else r = {min_num(r.lower, b.lower), min_num(r.upper, b.upper)};
      }
      return r;
    }
    case K::True: return ValueRange::exactly(1);
    case K::False: return ValueRange::exactly(0);
    case K::Eq:
    case K::Ne:
    case K::Lt:
    case K::Le:
    case K::Gt:
    case K::Ge: {
      const ValueRange d = bound(difference(e, memo), range_of, memo);
      const ValueRange a = bound(args[0], range_of, memo), b = bound(args[1], range_of, memo);
      const ValueRange separate = relation_from_difference(
          e.kind(), {add_sat(a.lower, neg(b.upper)), add_sat(a.upper, neg(b.lower))});
      return narrowest(relation_from_difference(e.kind(), d), separate);
    }
    case K::And:
    case K::Or: {
      bool all_can_true = true, any_can_true = false, all_can_false = true, any_can_false = false;
      for (const Expr& a : args) {
        const ValueRange r = bound(a, range_of, memo);
        all_can_true = all_can_true && can_be_true(r);
        any_can_true = any_can_true || can_be_true(r);
        all_can_false = all_can_false && can_be_false(r);
        any_can_false = any_can_false || can_be_false(r);
      }
      if (e.kind() == K::And) return ValueRange::boolean(any_can_false, all_can_true);
      return ValueRange::boolean(all_can_false, any_can_true);
    }
    case K::Not: {
      const ValueRange r = bound(args[0], range_of, memo);
      return ValueRange::boolean(can_be_true(r), can_be_false(r));
    }
  }
  return ValueRange::unknown();
}

}  // namespace

ValueRange ValueRange::boolean(bool can_false, bool can_true) {
  if (can_false && can_true) return {integer(0), integer(1)};
  if (can_true) return exactly(1);
  if (can_false) return exactly(0);
  return {integer(1), integer(0)};  // empty: contradictory facts
}

bool ValueRange::contains(int64_t v) const {
  return compare(lower, integer(v)) <= 0 && compare(integer(v), upper) <= 0;
}

bool ValueRange::is_subset_of(const ValueRange& other) const {
  return compare(other.lower, lower) <= 0 && compare(upper, other.upper) <= 0;
}

ValueRange ValueRange::intersect(const ValueRange& other) const {
  return {max_num(lower, other.lower), min_num(upper, other.upper)};
}

std::string ValueRange::str() const { return "[" + lower.str() + ", " + upper.str() + "]"; }

ValueRange bound_expr(const Expr& e, const RangeOf& range_of, SolveMemo* memo) { return bound(e, range_of, memo); }

int64_t ceil_div(int64_t num, int64_t den) { return -floor_div(-num, den); }
int64_t floor_div_exact(int64_t num, int64_t den) { return floor_div(num, den); }

}  // namespace exportlens::symbolic

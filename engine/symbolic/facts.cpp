// Sign and parity facts following sympy's _eval_is_* handlers for Add, Mul,
// Pow and torch's FloorDiv/Mod/Max/Min, closed under the implications of
// sympy's assumption rules (positive -> nonnegative, ...).
#include "engine/symbolic/facts.h"

#include <algorithm>
#include <climits>
#include <vector>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/monotonic_sign.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

/// sympy's fuzzy_or: true when one is true, false when all are false.
template <class Pick>
Fuzzy fuzzy_or(const std::vector<Expr>& args, Pick pick) {
  bool all_false = true;
  for (const Expr& a : args) {
    const Fuzzy f = pick(facts(a));
    if (is_true(f)) return true;
    if (!is_false(f)) all_false = false;
  }
  return all_false ? Fuzzy(false) : std::nullopt;
}

/// sympy's fuzzy_and, by De Morgan: not (one of them is not).
template <class Pick>
Fuzzy fuzzy_and(const std::vector<Expr>& args, Pick pick) {
  return negated(fuzzy_or(args, [&](const Facts& f) { return negated(pick(f)); }));
}

/// True if all true, False if all false, else unknown (sympy's _torf).
template <class Pick>
Fuzzy torf(const std::vector<Expr>& args, Pick pick) {
  bool all_true = true, all_false = true;
  for (const Expr& a : args) {
    const Fuzzy f = pick(facts(a));
    if (!is_true(f)) all_true = false;
    if (!is_false(f)) all_false = false;
  }
  if (all_true) return true;
  if (all_false) return false;
  return std::nullopt;
}

void set(Fuzzy& slot, bool value, bool& changed) {
  if (!slot.has_value()) {
    slot = value;
    changed = true;
  }
}

/// Close the facts of an integer under sympy's implication rules.
Facts close(Facts f) {
  bool changed = true;
  while (changed) {
    changed = false;
    if (is_true(f.positive)) {
      set(f.nonnegative, true, changed), set(f.zero, false, changed);
      set(f.negative, false, changed), set(f.nonpositive, false, changed);
    }
    if (is_true(f.negative)) {
      set(f.nonpositive, true, changed), set(f.zero, false, changed);
      set(f.positive, false, changed), set(f.nonnegative, false, changed);
    }
    if (is_true(f.zero)) {
      set(f.nonnegative, true, changed), set(f.nonpositive, true, changed);
      set(f.positive, false, changed), set(f.negative, false, changed);
      set(f.even, true, changed);
    }
    if (is_false(f.negative)) set(f.nonnegative, true, changed);
    if (is_false(f.positive)) set(f.nonpositive, true, changed);
    if (is_false(f.nonnegative)) set(f.negative, true, changed);
    if (is_false(f.nonpositive)) set(f.positive, true, changed);
    if (is_true(f.nonnegative) && is_false(f.zero)) set(f.positive, true, changed);
    if (is_true(f.nonpositive) && is_false(f.zero)) set(f.negative, true, changed);
    if (is_true(f.nonnegative) && is_true(f.nonpositive)) set(f.zero, true, changed);
    if (is_true(f.nonnegative)) set(f.negative, false, changed);
    if (is_true(f.nonpositive)) set(f.positive, false, changed);
    if (is_true(f.even)) set(f.odd, false, changed);
    if (is_true(f.odd)) set(f.even, false, changed), set(f.zero, false, changed);
    if (is_false(f.even)) set(f.odd, true, changed);
    if (is_false(f.odd)) set(f.even, true, changed);
  }
  return f;
}

Facts of_number(const Num& n) {
  Facts f;
  f.positive = n.is_positive();
  f.negative = n.is_negative();
  if (!n.is_infinite()) {
    f.zero = n.is_zero();
    f.even = n.value % 2 == 0;
  } else {
    f.zero = false;
  }
  return n.is_infinite() ? f : close(f);
}

Facts of_symbol(const ExprNode& n) {
  Facts f;
  for (const auto& [key, value] : n.assumptions) {
    if (key == "positive") f.positive = value;
    else if (key == "negative") f.negative = value;
    else if (key == "nonnegative") f.nonnegative = value;
    else if (key == "nonpositive") f.nonpositive = value;
    else if (key == "zero") f.zero = value;
    else if (key == "nonzero") f.zero = !value;
    else if (key == "even") f.even = value;
    else if (key == "odd") f.odd = value;
  }
  return close(f);
}

/// sympy Mul._eval_pos_neg(sign): is the product's sign `sign`?
Fuzzy mul_pos_neg(const std::vector<Expr>& args, int sign) {
  bool saw_non = false, saw_not = false;
  for (const Expr& t : args) {
    const Facts& f = facts(t);
    if (is_true(f.positive)) continue;
    if (is_true(f.negative)) {
      sign = -sign;
    } else if (is_true(f.zero)) {
      return false;  // all our factors are finite
    } else if (is_true(f.nonpositive)) {
      sign = -sign, saw_non = true;
    } else if (is_true(f.nonnegative)) {
      saw_non = true;
    } else if (is_false(f.positive)) {
      sign = -sign;
      if (saw_not) return std::nullopt;
      saw_not = true;
    } else if (is_false(f.negative)) {
      if (saw_not) return std::nullopt;
      saw_not = true;
    } else {
      return std::nullopt;
    }
  }
  if (sign == 1 && !saw_non && !saw_not) return true;
  if (sign < 0) return false;
  return std::nullopt;
}

/// Mul._eval_is_odd: any even factor makes the product even, and so do two
/// neighbouring factors whose sum is odd (one of them must be even).
Fuzzy mul_is_odd(const std::vector<Expr>& args) {
  Fuzzy odd = true;
  std::optional<Expr> previous;
  for (const Expr& t : args) {
    if (is_number(t) && (num(t) == Num::integer(1) || num(t) == Num::integer(-1))) continue;
    if (is_true(facts(t).even)) return false;
    if (is_false(odd)) {
      // stays false
    } else if (previous && is_true(facts(ExprBuilder::add({*previous, t})).odd)) {
      odd = false;
    } else if (!facts(t).even.has_value()) {
      odd = std::nullopt;
    }
    previous = t;
  }
  return odd;
}

Facts of_mul(const std::vector<Expr>& args) {
  Facts f;
  f.positive = mul_pos_neg(args, 1);
  f.negative = mul_pos_neg(args, -1);
  bool any_zero = false, all_nonzero = true;
  for (const Expr& a : args) {
    if (is_true(facts(a).zero)) any_zero = true;
    if (!is_false(facts(a).zero)) all_nonzero = false;
  }
  if (any_zero) f.zero = true;
  else if (all_nonzero) f.zero = false;
  f.odd = mul_is_odd(args);
  return close(f);
}

Facts of_pow(const Expr& base, int64_t exponent) {
  const Facts& b = facts(base);
  Facts f;
  if (exponent % 2 == 0) {
    f.negative = false;
    if (is_false(b.zero)) f.positive = true;
    if (is_true(b.zero)) f.zero = true;
  } else {
    f.positive = b.positive, f.negative = b.negative, f.zero = b.zero;
    f.nonnegative = b.nonnegative, f.nonpositive = b.nonpositive;
  }
  f.even = b.even, f.odd = b.odd;
  return close(f);
}

struct ConstantSplit {
  Num constant = Num::integer(0);
  Expr rest;  // the sum without its constant
  std::optional<int64_t> rest_sign;  // monotonic_sign(rest), when rest is built
};

/// sympy's as_coeff_Add; `rest` is only built when there is a finite
/// constant (building it computes its facts, which must not recurse forever).
ConstantSplit split_constant(const std::vector<Expr>& terms) {
  ConstantSplit s;
  std::vector<Expr> rest;
  for (const Expr& t : terms) {
    if (is_number(t)) s.constant = num(t);
    else rest.push_back(t);
  }
  if (s.constant.is_zero() || s.constant.is_infinite()) return s;
  s.rest = rest.size() == 1 ? rest.front() : ExprBuilder::raw(K::Add, rest);
  s.rest_sign = monotonic_sign(s.rest);
  return s;
}

/// Add._eval_is_extended_positive (sign = +1) / _negative (sign = -1).
Fuzzy add_strict_sign(const std::vector<Expr>& terms, const ConstantSplit& s, int sign) {
  if (!s.constant.is_zero() && !s.constant.is_infinite()) {
    if (const auto& v = s.rest_sign) {
      const Num total = Num::integer(static_cast<int64_t>(std::clamp<__int128>(
          __int128(*v) + s.constant.value, INT64_MIN, INT64_MAX)));
      const Facts& r = facts(s.rest);
      if (sign > 0 && total.is_positive() && is_true(r.nonnegative)) return true;
      if (sign < 0 && total.is_negative() && is_true(r.nonpositive)) return true;
      if (auto w = univariate_monotonic_sign(terms)) {
        if (sign > 0 && *w > 0) return true;
        if (sign < 0 && *w < 0) return true;
      }
    }
  }
  bool same = false, weak_same = false, weak_opposite = false;
  for (const Expr& a : terms) {
    const Facts& f = facts(a);
    if (is_true(f.zero)) continue;
    const Fuzzy strict = sign > 0 ? f.positive : f.negative;
    const Fuzzy weak = sign > 0 ? f.nonnegative : f.nonpositive;
    const Fuzzy opposite = sign > 0 ? f.nonpositive : f.nonnegative;
    if (is_true(strict)) same = true;
    else if (is_true(weak)) weak_same = true;
    else if (is_true(opposite)) weak_opposite = true;
    else return std::nullopt;
  }
  if (!weak_opposite && same) return true;
  if (!same && !weak_same) return false;
  return std::nullopt;
}

/// Add._eval_is_extended_nonnegative (sign = +1) / _nonpositive (sign = -1).
Fuzzy add_weak_sign(const std::vector<Expr>& terms, const ConstantSplit& s, int sign) {
  if (s.constant.is_zero() || s.constant.is_infinite()) return std::nullopt;
  const Facts& r = facts(s.rest);
  if (!is_true(sign > 0 ? r.nonnegative : r.nonpositive)) return std::nullopt;
  if (const auto& v = s.rest_sign) {
    const Num total = Num::integer(static_cast<int64_t>(std::clamp<__int128>(
        __int128(*v) + s.constant.value, INT64_MIN, INT64_MAX)));
    if (sign > 0 ? !total.is_negative() : !total.is_positive()) return true;
    if (auto w = univariate_monotonic_sign(terms))
      if (sign > 0 ? *w >= 0 : *w <= 0) return true;
  }
  return std::nullopt;
}

Facts of_add(const std::vector<Expr>& terms) {
  Facts f;
  const ConstantSplit s = split_constant(terms);  // once: it builds the rest
  f.positive = add_strict_sign(terms, s, 1);
  f.negative = add_strict_sign(terms, s, -1);
  if (auto nn = add_weak_sign(terms, s, 1)) f.nonnegative = nn;
  if (auto np = add_weak_sign(terms, s, -1)) f.nonpositive = np;
  // Parity: a sum of terms of known parity.
  bool odd = false, known = true;
  for (const Expr& t : terms) {
    if (is_true(facts(t).odd)) odd = !odd;
    else if (!is_true(facts(t).even)) known = false;
  }
  if (known) f.odd = odd;
  return close(f);
}

Facts of_floordiv(const Expr& e) {
  Facts f;
  if (is_true(facts(e.args()[0]).nonnegative) && is_true(facts(e.args()[1]).nonnegative))
    f.nonnegative = true;
  return close(f);
}

Facts of_mod(const Expr& e) {
  Facts f;
  if (N(e).flavor != Flavor::PythonMod) {
    f.nonnegative = true;  // torch's Mod is only defined on non-negative operands
  } else {
    const Facts& q = facts(e.args()[1]);
    if (is_true(q.positive)) f.nonnegative = true;
    if (is_true(q.negative)) f.nonpositive = true;
  }
  return close(f);
}

Facts of_min_max(const Expr& e) {
  const auto& args = e.args();
  auto positive = [](const Facts& f) { return f.positive; };
  auto negative = [](const Facts& f) { return f.negative; };
  auto nonnegative = [](const Facts& f) { return f.nonnegative; };
  Facts f;
  if (e.kind() == K::Max) {
    f.positive = fuzzy_or(args, positive);
    f.nonnegative = fuzzy_or(args, nonnegative);
    f.negative = fuzzy_and(args, negative);
  } else {
    f.positive = fuzzy_and(args, positive);
    f.nonnegative = fuzzy_and(args, nonnegative);
    f.negative = fuzzy_or(args, negative);
  }
  f.nonpositive = torf(args, [](const Facts& x) { return x.nonpositive; });
  f.zero = torf(args, [](const Facts& x) { return x.zero; });
  f.even = torf(args, [](const Facts& x) { return x.even; });
  f.odd = torf(args, [](const Facts& x) { return x.odd; });
  return close(f);
}

}  // namespace

Facts compute_facts(const Expr& e) {
  switch (e.kind()) {
    case K::Integer:
    case K::Infinity: return of_number(num(e));
    case K::Symbol: return of_symbol(N(e));
    case K::Add: return of_add(e.args());
    case K::Mul: return of_mul(e.args());
    case K::Pow: return of_pow(e.args()[0], *e.args()[1].as_integer());
    case K::FloorDiv: return of_floordiv(e);
    case K::Mod: return of_mod(e);
    case K::Max:
    case K::Min: return of_min_max(e);
    default: return Facts{};  // booleans carry no integer facts
  }
}

}  // namespace exportlens::symbolic

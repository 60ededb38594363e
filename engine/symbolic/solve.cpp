#include "engine/symbolic/solve.h"

#include <stdexcept>
#include <vector>

#include "engine/symbolic/linear_relation.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

std::vector<Expr> terms(const Expr& e) {
  if (e.kind() == K::Add) return e.args();
  return {e};
}

/// term = coefficient * body.
std::pair<int64_t, Expr> coefficient(const Expr& term) {
  if (term.is_integer()) return {*term.as_integer(), Expr(1)};
  if (term.kind() == K::Mul && term.args().front().is_integer()) {
    Expr body(1);
    for (size_t i = 1; i < term.args().size(); ++i) body = body * term.args()[i];
    return {*term.args().front().as_integer(), body};
  }
  return {1, term};
}

bool is_inequality(K k) { return k == K::Lt || k == K::Le || k == K::Gt || k == K::Ge; }

struct Trial {
  K kind;
  Expr lhs, rhs;
  int64_t denominator = 1;
};

/// What sympy decides of lhs REL rhs when they differ by a*s + b over one
/// positive integer symbol s (or by a constant); nullopt: left unevaluated.
std::optional<bool> assumed_truth(K kind, const Expr& lhs, const Expr& rhs, const PositiveSymbol& positive) {
  using constraints::Rational;
  const Expr relation = make_relation(kind, lhs, rhs);
  if (relation.kind() == K::True) return true;
  if (relation.kind() == K::False) return false;
  if (!positive) return std::nullopt;
  int64_t a = 0, b = 0;
  std::string name;
  for (const Expr& term : terms(lhs - rhs)) {
    auto [k, body] = coefficient(term);
    if (body == Expr(1)) {
      b += k;
    } else if (body.is_symbol() && (name.empty() || name == body.symbol_name())) {
      name = body.symbol_name();
      a += k;
    } else {
      return std::nullopt;
    }
  }
  if (name.empty() || !positive(name)) return std::nullopt;
  return constraints::truth_for_positive_symbol({kind, {Rational::of(a), Rational::of(b)}});
}

/// Whether sympy knows e is not negative (is_negative False): positive
/// symbols, constants >= 0, and sums, products, floordivs by a positive
/// constant and Max of those.
bool known_nonnegative(const Expr& e, const PositiveSymbol& positive) {
  switch (e.kind()) {
    case K::Integer: return *e.as_integer() >= 0;
    case K::Symbol: return positive && positive(e.symbol_name());
    case K::Add:
    case K::Mul:
      for (const Expr& a : e.args())
        if (!known_nonnegative(a, positive)) return false;
      return true;
    case K::FloorDiv: {
      const auto d = e.args()[1].as_integer();
      return d && *d > 0 && known_nonnegative(e.args()[0], positive);
    }
    case K::Max:
      for (const Expr& a : e.args())
        if (known_nonnegative(a, positive)) return true;
      return false;
    default: return false;
  }
}

/// _try_isolate_lhs' division of both sides by the factors of a product that
/// do not contain the symbol, for a non-constant factor: sympy divides when
/// the factor's sign is known (inequalities) or the right side is not zero
/// (equalities). Only a right side that is 0 or the factor itself gives an
/// integer solution; anything else is left unsolved.
bool divide_by_factor(Trial& t, const Expr& symbol, const PositiveSymbol& positive) {
  Expr inner(1), other(1);
  int with_symbol = 0;
  for (const Expr& a : t.lhs.args()) {
    if (contains_symbol(a, symbol)) {
      inner = inner * a;
      ++with_symbol;
    } else {
      other = other * a;
    }
  }
  if (with_symbol != 1 || other.is_integer()) return false;
  if (is_inequality(t.kind) ? !known_nonnegative(other, positive) : t.rhs == Expr(0)) return false;
  if (t.rhs == other) t.rhs = Expr(1);
  else if (!(t.rhs == Expr(0))) return false;
  t.lhs = inner;
  return true;
}

/// Moves the terms without the symbol from the left side to the right.
bool move_other_terms(Trial& t, const Expr& symbol) {
  if (t.lhs.kind() != K::Add) return false;
  Expr rest(0);
  for (const Expr& a : t.lhs.args())
    if (!contains_symbol(a, symbol)) rest = rest + a;
  if (rest == Expr(0)) return false;
  t.lhs = t.lhs - rest;
  t.rhs = t.rhs - rest;
  return true;
}

/// Divides both sides by the left side's factors without the symbol.
bool divide_by_coefficient(Trial& t, const Expr& symbol, const PositiveSymbol& positive) {
  if (t.lhs.kind() != K::Mul) return false;
  auto [c, body] = coefficient(t.lhs);
  if (!(c != 1 && body == symbol)) return divide_by_factor(t, symbol, positive);
  if (!is_inequality(t.kind) && t.rhs == Expr(0)) return false;
  if (auto q = divide_exactly(t.rhs, c)) {
    t.rhs = *q;
  } else {
    t.rhs = c < 0 ? -t.rhs : t.rhs;
    t.denominator *= c < 0 ? -c : c;
  }
  if (c < 0 && is_inequality(t.kind)) t.kind = mirrored(t.kind);
  t.lhs = body;
  return true;
}

/// (a // d) RELATION q as a relation on a (d a positive integer, q an integer).
bool unfold_floordiv(Trial& t, const PositiveSymbol& positive) {
  if (t.lhs.kind() != K::FloorDiv || t.denominator != 1) return false;
  const Expr& num = t.lhs.args()[0];
  const auto d = t.lhs.args()[1].as_integer();
  if (!d || *d <= 0) return false;
  if (t.kind == K::Eq || t.kind == K::Ne) {
    // Eq: And(num >= q*d, num < (q+1)*d); Ne: Or(num < q*d, num >= (q+1)*d).
    // sympy evaluates each half; one decided the way that drops it leaves the other.
    const bool eq = t.kind == K::Eq;
    const Expr low = t.rhs * *d, high = (t.rhs + 1) * *d;
    const K first = eq ? K::Ge : K::Lt, second = eq ? K::Lt : K::Ge;
    const auto a = assumed_truth(first, num, low, positive), b = assumed_truth(second, num, high, positive);
    const bool drops = eq;  // And drops a true half, Or a false one
    if (a && *a == drops && !b) {
      t = Trial{second, num, high, t.denominator};
      return true;
    }
    if (b && *b == drops && !a) {
      t = Trial{first, num, low, t.denominator};
      return true;
    }
    return false;
  }
  switch (t.kind) {
    case K::Ge: t.rhs = t.rhs * *d; break;
    case K::Gt: t.rhs = (t.rhs + 1) * *d; t.kind = K::Ge; break;
    case K::Lt: t.rhs = t.rhs * *d; break;
    case K::Le: t.rhs = (t.rhs + 1) * *d; t.kind = K::Lt; break;
    default: return false;
  }
  t.lhs = num;
  return true;
}

/// One trial of torch's _try_isolate_lhs: move the other terms, divide by the
/// other factors, then unfold a floor division, each where it applies, in one
/// trial (so five trials peel five nested `(x - c) // d`, as torch's do);
/// returns false when nothing changed.
bool isolate_step(Trial& t, const Expr& symbol, bool floordiv_inequality, const PositiveSymbol& positive) {
  bool changed = move_other_terms(t, symbol);
  changed = divide_by_coefficient(t, symbol, positive) || changed;
  if (floordiv_inequality) changed = unfold_floordiv(t, positive) || changed;
  return changed;
}

}  // namespace

bool contains_symbol(const Expr& e, const Expr& thing) {
  if (e == thing) return true;
  for (const Expr& a : e.args())
    if (contains_symbol(a, thing)) return true;
  return false;
}

bool is_relation(K kind) {
  return kind == K::Eq || kind == K::Ne || kind == K::Lt || kind == K::Le || kind == K::Gt || kind == K::Ge;
}

K mirrored(K kind) {
  switch (kind) {
    case K::Lt: return K::Gt;
    case K::Le: return K::Ge;
    case K::Gt: return K::Lt;
    case K::Ge: return K::Le;
    default: return kind;
  }
}

Expr make_relation(K kind, const Expr& lhs, const Expr& rhs) {
  switch (kind) {
    case K::Eq: return Expr::eq(lhs, rhs);
    case K::Ne: return Expr::ne(lhs, rhs);
    case K::Lt: return Expr::lt(lhs, rhs);
    case K::Le: return Expr::le(lhs, rhs);
    case K::Gt: return Expr::gt(lhs, rhs);
    case K::Ge: return Expr::ge(lhs, rhs);
    default: throw std::logic_error("make_relation: not a relation");
  }
}

std::optional<Expr> divide_exactly(const Expr& e, int64_t c) {
  if (c == 0) return std::nullopt;
  Expr out(0);
  for (const Expr& t : terms(e)) {
    auto [k, body] = coefficient(t);
    if (k % c != 0) return std::nullopt;
    out = out + Expr(k / c) * body;
  }
  return out;
}

std::optional<Isolated> isolate(const Expr& relation, const Expr& symbol, bool floordiv_inequality,
                                const PositiveSymbol& positive) {
  if (!is_relation(relation.kind())) return std::nullopt;
  const Expr& lhs = relation.args()[0];
  const Expr& rhs = relation.args()[1];
  const bool in_lhs = contains_symbol(lhs, symbol), in_rhs = contains_symbol(rhs, symbol);
  if (in_lhs == in_rhs) return std::nullopt;
  Trial t = in_lhs ? Trial{relation.kind(), lhs, rhs} : Trial{mirrored(relation.kind()), rhs, lhs};
  for (int i = 0; i < 5 && !(t.lhs == symbol); ++i)
    if (!isolate_step(t, symbol, floordiv_inequality, positive)) break;
  if (!(t.lhs == symbol) || contains_symbol(t.rhs, symbol)) return std::nullopt;
  return Isolated{t.kind, t.rhs, t.denominator};
}

}  // namespace exportlens::symbolic

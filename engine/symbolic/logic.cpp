// Relations, And/Or/Not with sympy's automatic evaluation: relations fold
// when the sign of the difference is known (facts.h), And/Or drop neutral
// elements and duplicates, Not negates relations.
#include <algorithm>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

bool is_boolean_atom(const Expr& e) { return e.kind() == K::True || e.kind() == K::False; }

Expr difference(const Expr& a, const Expr& b) {
  return ExprBuilder::add({a, multiply_by(Num::integer(-1), b)});
}

/// sympy's is_eq for our integer expressions.
Fuzzy is_eq(const Expr& a, const Expr& b) {
  if (a == b) return true;
  if (is_number(a) && is_number(b)) return compare(num(a), num(b)) == 0;
  if (a.kind() == K::Infinity || b.kind() == K::Infinity) return std::nullopt;
  const Fuzzy zero = facts(difference(a, b)).zero;
  return zero;
}

/// sympy's is_ge: a - b known nonnegative (or not).
Fuzzy is_ge(const Expr& a, const Expr& b) {
  if (is_number(a) && is_number(b)) return compare(num(a), num(b)) >= 0;
  if (a.kind() == K::Infinity || b.kind() == K::Infinity) return std::nullopt;
  return facts(difference(a, b)).nonnegative;
}

Fuzzy decide(K kind, const Expr& a, const Expr& b) {
  switch (kind) {
    case K::Eq: return is_eq(a, b);
    case K::Ne: return negated(is_eq(a, b));
    case K::Ge: return is_ge(a, b);
    case K::Le: return is_ge(b, a);
    case K::Lt: return negated(is_ge(a, b));
    case K::Gt: return negated(is_ge(b, a));
    default: throw std::logic_error("not a relation");
  }
}

Fuzzy decide_booleans(K kind, const Expr& a, const Expr& b) {
  Fuzzy equal;
  if (a == b) equal = true;
  else if (is_boolean_atom(a) && is_boolean_atom(b)) equal = false;
  if (kind == K::Ne) return negated(equal);
  return equal;
}

bool is_relation(K kind) {
  return kind == K::Eq || kind == K::Ne || kind == K::Lt || kind == K::Le || kind == K::Gt ||
         kind == K::Ge;
}

}  // namespace

K negation(K kind) {
  switch (kind) {
    case K::Eq: return K::Ne;
    case K::Ne: return K::Eq;
    case K::Lt: return K::Ge;
    case K::Le: return K::Gt;
    case K::Gt: return K::Le;
    case K::Ge: return K::Lt;
    default: throw std::logic_error("not a relation");
  }
}

Expr ExprBuilder::relation(K kind, const Expr& a, const Expr& b) {
  Fuzzy result;
  if (a.is_boolean() || b.is_boolean()) {
    if (kind != K::Eq && kind != K::Ne)
      throw std::invalid_argument("cannot order booleans: " + a.str() + ", " + b.str());
    if (a.is_boolean() != b.is_boolean()) result = kind == K::Ne;  // only booleans equal booleans
    else result = decide_booleans(kind, a, b);
  } else {
    result = decide(kind, a, b);
  }
  if (result) return boolean(*result);
  return raw(kind, {a, b});
}

Expr ExprBuilder::logic(K kind, std::vector<Expr> args) {
  const K absorbing = kind == K::And ? K::False : K::True;
  const K neutral = kind == K::And ? K::True : K::False;
  std::vector<Expr> flat;
  for (size_t i = 0; i < args.size(); ++i) {
    const Expr a = args[i];
    if (!a.is_boolean())
      throw std::invalid_argument(std::string(kind == K::And ? "And" : "Or") +
                                  " of a non-boolean: " + a.str());
    if (a.kind() == absorbing) return a;
    if (a.kind() == neutral) continue;
    if (a.kind() == kind) {
      args.insert(args.end(), a.args().begin(), a.args().end());
      continue;
    }
    if (std::find(flat.begin(), flat.end(), a) == flat.end()) flat.push_back(a);
  }
  if (flat.empty()) return raw(neutral, {});
  if (flat.size() == 1) return flat.front();
  std::sort(flat.begin(), flat.end(), ordered_less);
  return raw(kind, std::move(flat));
}

Expr ExprBuilder::logical_not(const Expr& a) {
  if (!a.is_boolean()) throw std::invalid_argument("Not of a non-boolean: " + a.str());
  if (a.kind() == K::True) return boolean(false);
  if (a.kind() == K::False) return boolean(true);
  if (a.kind() == K::Not) return a.args().front();
  if (is_relation(a.kind())) return raw(negation(a.kind()), a.args());
  return raw(K::Not, {a});
}

}  // namespace exportlens::symbolic

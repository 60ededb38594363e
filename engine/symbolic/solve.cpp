#include "engine/symbolic/solve.h"

#include <stdexcept>
#include <vector>

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

/// One step of torch's _try_isolate_lhs; returns false when nothing changed.
bool isolate_step(Trial& t, const Expr& symbol, bool floordiv_inequality) {
  if (t.lhs.kind() == K::Add) {
    Expr rest(0);
    for (const Expr& a : t.lhs.args())
      if (!contains_symbol(a, symbol)) rest = rest + a;
    if (!(rest == Expr(0))) {
      t.lhs = t.lhs - rest;
      t.rhs = t.rhs - rest;
      return true;
    }
  }
  if (t.lhs.kind() == K::Mul) {
    auto [c, body] = coefficient(t.lhs);
    if (c != 1 && body == symbol) {
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
    return false;  // x*y: dividing by a symbol leaves no integer solution
  }
  if (floordiv_inequality && t.lhs.kind() == K::FloorDiv && t.denominator == 1) {
    const Expr& num = t.lhs.args()[0];
    const auto d = t.lhs.args()[1].as_integer();
    if (!d || *d <= 0) return false;
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
  return false;
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

std::optional<Isolated> isolate(const Expr& relation, const Expr& symbol, bool floordiv_inequality) {
  if (!is_relation(relation.kind())) return std::nullopt;
  const Expr& lhs = relation.args()[0];
  const Expr& rhs = relation.args()[1];
  const bool in_lhs = contains_symbol(lhs, symbol), in_rhs = contains_symbol(rhs, symbol);
  if (in_lhs == in_rhs) return std::nullopt;
  Trial t = in_lhs ? Trial{relation.kind(), lhs, rhs} : Trial{mirrored(relation.kind()), rhs, lhs};
  for (int i = 0; i < 5 && !(t.lhs == symbol); ++i)
    if (!isolate_step(t, symbol, floordiv_inequality)) break;
  if (!(t.lhs == symbol) || contains_symbol(t.rhs, symbol)) return std::nullopt;
  return Isolated{t.kind, t.rhs, t.denominator};
}

}  // namespace exportlens::symbolic

// FloorDiv and Mod with the automatic evaluation of torch's
// torch/utils/_sympy/functions.py (FloorDiv.eval, Mod.eval, PythonMod.eval).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

Expr integer(int64_t v) { return ExprBuilder::number(Num::integer(v)); }
bool is_int(const Expr& e, int64_t v) { return e.is_integer() && *e.as_integer() == v; }

void require_integer_valued(const Expr& a, const Expr& b, const char* op) {
  if (a.is_boolean() || b.is_boolean())
    throw std::invalid_argument(std::string("a boolean cannot be an operand of ") + op);
}

/// Mul.make_args(term): the coefficient (if not 1) and the factors.
std::vector<Expr> mul_args(const Expr& term) {
  if (term.kind() == K::Mul) return term.args();
  return {term};
}

/// The finite integer coefficient of a term (the number itself for a number).
std::optional<int64_t> coefficient_of(const Expr& term) {
  const Num c = split_coefficient(term).first;
  if (c.is_infinite()) return std::nullopt;
  return c.value;
}

/// term / d when d divides the term's coefficient exactly.
std::optional<Expr> divide_term(const Expr& term, int64_t d) {
  const auto c = coefficient_of(term);
  if (!c || d == 0 || *c % d != 0) return std::nullopt;
  return ExprBuilder::mul({integer(*c / d), split_coefficient(term).second});
}

/// p / q when it is an integer expression in sympy's eyes (r.is_integer).
std::optional<Expr> exact_quotient(const Expr& p, const Expr& q) {
  if (q.is_integer()) {  // sympy distributes 1/d over a sum
    std::vector<Expr> quotients;
    for (const Expr& t : terms_of(p)) {
      auto r = divide_term(t, *q.as_integer());
      if (!r) return std::nullopt;
      quotients.push_back(*r);
    }
    return ExprBuilder::add(std::move(quotients));
  }
  if (!is_number(q)) {  // cancel the monomial q out of the term p
    auto [qc, qbody] = split_coefficient(q);
    auto [pc, pbody] = split_coefficient(p);
    if (qc.is_infinite() || pc.is_infinite() || pc.value % qc.value != 0) return std::nullopt;
    std::vector<std::pair<Expr, int64_t>> p_powers;
    for (const Expr& f : factors_of(pbody)) p_powers.push_back(split_power(f));
    for (const Expr& f : factors_of(qbody)) {
      auto [base, exponent] = split_power(f);
      bool found = false;
      for (auto& [pb, pe] : p_powers) {
        if (pb == base && pe >= exponent) {
          pe -= exponent;
          found = true;
          break;
        }
      }
      if (!found) return std::nullopt;
    }
    std::vector<Expr> factors{integer(pc.value / qc.value)};
    for (const auto& [base, exponent] : p_powers) factors.push_back(ExprBuilder::pow(base, exponent));
    return ExprBuilder::mul(std::move(factors));
  }
  return std::nullopt;
}

/// torch's simple_floordiv_gcd: the integer content shared by p and q times
/// the factors of q that appear in every term of p.
Expr simple_floordiv_gcd(const Expr& p, const Expr& q) {
  auto integer_factor = [](const Expr& e) -> std::optional<int64_t> {
    int64_t g = 0;
    for (const Expr& t : terms_of(e)) {
      const auto c = coefficient_of(t);
      if (!c) return std::nullopt;
      g = gcd(g, *c);
    }
    return g;
  };
  const auto fp = integer_factor(p), fq = integer_factor(q);
  if (!fp || !fq) return integer(1);
  const int64_t g = gcd(*fp, *fq);
  const Expr p_reduced = *exact_quotient(p, integer(g));
  const Expr q_reduced = *exact_quotient(q, integer(g));
  std::vector<Expr> common{integer(g)};
  for (const Expr& x : mul_args(q_reduced)) {
    bool everywhere = true;
    for (const Expr& t : terms_of(p_reduced)) {
      const auto args = mul_args(t);
      if (std::find(args.begin(), args.end(), x) == args.end()) everywhere = false;
    }
    if (everywhere) common.push_back(x);
  }
  return ExprBuilder::mul(std::move(common));
}

std::optional<std::pair<Expr, Expr>> cancel_polynomial_gcd(const Expr& p, const Expr& q);

/// e / g for a g built from e's own factors (exact by construction).
Expr divide_exactly(const Expr& e, const Expr& g) {
  if (auto whole = exact_quotient(e, g)) return *whole;
  std::vector<Expr> quotients;
  for (const Expr& t : terms_of(e)) {
    auto r = exact_quotient(t, g);
    if (!r) {
      // sympy.simplify cancels the quotient factor by factor: a g that sympy
      // distributed into a sum (256*(a + 1) is 256*a + 256) still divides
      // e = 256*(a + 1)*(b + 1), to b + 1.
      if (auto reduced = cancel_polynomial_gcd(e, g); reduced && reduced->second == Expr(1)) return reduced->first;
      throw std::logic_error("symbolic: inexact division of " + e.srepr() + " by " + g.srepr());
    }
    quotients.push_back(*r);
  }
  return ExprBuilder::add(std::move(quotients));
}

/// What sympy.simplify does to the sums that reach it here: it pulls the
/// monomial common to every term out in front, s0*s1 + s0 -> s0*(s1 + 1).
Expr pull_common_monomial(const Expr& e) {
  if (e.kind() != K::Add) return e;
  std::vector<std::pair<Expr, int64_t>> common;
  int64_t content = 0;
  bool first = true;
  for (const Expr& t : e.args()) {
    if (is_number(t)) return e;
    auto [c, body] = split_coefficient(t);
    if (c.is_infinite()) return e;
    content = gcd(content, c.value);
    std::vector<std::pair<Expr, int64_t>> powers;
    for (const Expr& f : factors_of(body)) powers.push_back(split_power(f));
    if (first) {
      common = powers;
      first = false;
      continue;
    }
    std::vector<std::pair<Expr, int64_t>> kept;
    for (const auto& [base, exponent] : common)
      for (const auto& [b, x] : powers)
        if (b == base) kept.emplace_back(base, std::min(exponent, x));
    common = std::move(kept);
  }
  if (common.empty()) return e;
  std::vector<Expr> factors{integer(content)};
  for (const auto& [base, exponent] : common) factors.push_back(ExprBuilder::pow(base, exponent));
  const Expr monomial = ExprBuilder::mul(factors);
  const Expr rest = divide_exactly(e, monomial);
  factors.push_back(rest);
  return ExprBuilder::mul(std::move(factors));
}

/// An expression as integer content times powers of factors, where sums
/// are made primitive (content 1, first coefficient positive) after pulling
/// out their common monomial: 6*s0*s1 + 6*s1 -> 6 * s1 * (s0 + 1).
struct Factored {
  int64_t content = 1;
  std::vector<std::pair<Expr, int64_t>> powers;
};

std::optional<Factored> factor_roughly(const Expr& e) {
  auto [c, body] = split_coefficient(pull_common_monomial(e));
  if (c.is_infinite()) return std::nullopt;
  Factored out{c.value, {}};
  for (const Expr& f : factors_of(body)) {
    auto [base, exponent] = split_power(f);
    if (base.kind() == K::Add) {
      int64_t content = 0;
      for (const Expr& t : base.args()) {
        const auto tc = coefficient_of(t);
        if (!tc) return std::nullopt;
        content = gcd(content, *tc);
      }
      // The sign of the leading (highest lex) term, which the printed
      // order puts first unless it is the "5 - s0" special case.
      const Expr& leading = is_number(base.args().front()) ? base.args().back() : base.args().front();
      if (*coefficient_of(leading) < 0) content = -content;
      base = *exact_quotient(base, integer(content));
      out.content *= checked_pow(content, exponent);
    }
    bool merged = false;
    for (auto& [b, x] : out.powers)
      if (b == base) x += exponent, merged = true;
    if (!merged) out.powers.emplace_back(base, exponent);
  }
  return out;
}

Expr product(int64_t content, const std::vector<std::pair<Expr, int64_t>>& powers) {
  std::vector<Expr> factors{integer(content)};
  for (const auto& [base, exponent] : powers) factors.push_back(ExprBuilder::pow(base, exponent));
  return ExprBuilder::mul(std::move(factors));
}

/// What sympy.gcd(p, q) finds for the cases torch meets (torch's safe_gcd,
/// used when the divisor is a sum): common content and common factors once
/// monomials are pulled out and sums made primitive. Returns p/g and q/g,
/// or nullopt when g is 1. Sums that only factor properly, like
/// s0*s1 + s0 + s1 + 1 = (s0 + 1)*(s1 + 1), are not found.
std::optional<std::pair<Expr, Expr>> cancel_polynomial_gcd(const Expr& p, const Expr& q) {
  constexpr size_t kMaxAddTermsForPolyGcd = 20;  // torch's _MAX_ADD_TERMS_FOR_POLY_GCD
  for (const Expr* e : {&p, &q})
    if (e->kind() == K::Add && e->args().size() > kMaxAddTermsForPolyGcd) return std::nullopt;
  auto fp = factor_roughly(p), fq = factor_roughly(q);
  if (!fp || !fq) return std::nullopt;
  const int64_t content = gcd(fp->content, fq->content);
  bool common_factor = false;
  for (auto& [base, exponent] : fp->powers) {
    for (auto& [b, x] : fq->powers) {
      if (!(b == base)) continue;
      const int64_t shared = std::min(exponent, x);
      exponent -= shared, x -= shared;
      common_factor = true;
    }
  }
  if (!common_factor && content == 1) return std::nullopt;
  return std::pair{product(fp->content / content, fp->powers), product(fq->content / content, fq->powers)};
}

}  // namespace

Expr ExprBuilder::floordiv(const Expr& base, const Expr& divisor, Flavor flavor) {
  require_integer_valued(base, divisor, "//");
  if (is_true(facts(divisor).zero))
    throw std::domain_error("division by zero in " + base.str() + " // " + divisor.str());
  if (base.kind() == K::Infinity && divisor.kind() == K::Infinity)
    throw std::domain_error("int_oo // int_oo is undefined");
  if (is_true(facts(base).zero)) return integer(0);  // e.g. Max(0, -s0)
  if (is_int(divisor, 1)) return base;
  if (is_int(divisor, -1)) return multiply_by(Num::integer(-1), base);
  if (base == divisor) return integer(1);
  if (is_number(base) && is_number(divisor)) {
    if (base.kind() == K::Infinity) {  // float(inf) / d
      const int sign = num(base).infinity * (num(divisor).is_negative() ? -1 : 1);
      return number(Num::infinite(sign));
    }
    if (divisor.kind() == K::Infinity) return integer(0);  // floor(+-0.0)
    return integer(floor_div(num(base).value, num(divisor).value));
  }
  if (base.kind() == K::FloorDiv)
    return floordiv(base.args()[0], mul({base.args()[1], divisor}));
  if (divisor.is_integer()) {
    // (x*d + y) // d -> x + y // d for the terms d divides.
    std::vector<Expr> kept, quotients;
    for (const Expr& t : terms_of(base)) {
      if (auto q = divide_term(t, *divisor.as_integer()))
        quotients.push_back(*q);
      else
        kept.push_back(t);
    }
    if (!quotients.empty()) {
      quotients.push_back(floordiv(add(std::move(kept)), divisor));
      return add(std::move(quotients));
    }
  }
  const Expr g = simple_floordiv_gcd(base, divisor);
  if (!is_int(g, 1))
    return floordiv(pull_common_monomial(divide_exactly(base, g)),
                    pull_common_monomial(divide_exactly(divisor, g)));
  if (divisor.kind() == K::Add) {
    try {
      if (auto reduced = cancel_polynomial_gcd(base, divisor))
        return floordiv(pull_common_monomial(reduced->first), pull_common_monomial(reduced->second));
    } catch (const std::overflow_error&) {
      // coefficients too large to factor: leave it as it is
    }
  }
  return raw(K::FloorDiv, {base, divisor}, flavor);
}

Expr ExprBuilder::mod(const Expr& p, const Expr& q, Flavor flavor) {
  require_integer_valued(p, q, "%");
  if (is_int(q, 0)) throw std::domain_error("modulo by zero in Mod(" + p.str() + ", 0)");
  if (is_int(p, 0) || is_int(q, 1) || p == q || p == multiply_by(Num::integer(-1), q))
    return integer(0);
  if (is_true(facts(p).zero)) return integer(0);  // p/q is 0, an integer: Max(0, -s0)
  if (is_number(p) && is_number(q)) {
    if (p.kind() == K::Infinity || q.kind() == K::Infinity)
      throw std::domain_error("Mod with int_oo is undefined");
    return integer(python_mod(num(p).value, num(q).value));
  }
  if (is_int(q, 2)) {
    if (is_true(facts(p).even)) return integer(0);
    if (is_true(facts(p).odd)) return integer(1);
  }
  if (exact_quotient(p, q)) return integer(0);
  // 0 <= p < q: p / q is positive and the quotient floors to zero.
  const Facts &fp = facts(p), &fq = facts(q);
  const bool ratio_positive = (is_true(fp.positive) && is_true(fq.positive)) ||
                              (is_true(fp.negative) && is_true(fq.negative));
  if (ratio_positive && relation(K::Lt, p, q).kind() == K::True) return p;
  return raw(K::Mod, {p, q}, flavor);
}

Expr ExprBuilder::torch_mod(const Expr& a, const Expr& b) {
  const bool nonnegative = is_true(facts(a).nonnegative) && is_true(facts(b).nonnegative);
  return mod(a, b, nonnegative ? Flavor::Plain : Flavor::PythonMod);
}

}  // namespace exportlens::symbolic

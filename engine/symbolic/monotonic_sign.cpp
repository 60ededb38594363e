// sympy's _monotonic_sign (sympy/core/exprtools.py) for integer
// expressions: the value closest to zero an expression can take given the
// signs of its symbols. sympy's Add sign rules lean on it (s0 - 1 >= 0 for a
// positive integer s0).
#include "engine/symbolic/monotonic_sign.h"

#include <map>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

using Polynomial = std::map<int64_t, Num>;  // exponent -> coefficient

int64_t coefficient(const Polynomial& p, int64_t exponent) {
  auto it = p.find(exponent);
  return it == p.end() ? 0 : it->second.value;
}

/// Whether every real root of a*x^2 + b*x + c is <= x0, in exact integers:
/// the larger root is (-b + sqrt(D)) / 2a for a > 0, (b + sqrt(D)) / 2|a| for a < 0.
bool quadratic_roots_at_most(const Polynomial& p, int64_t x0) {
  const __int128 a = coefficient(p, 2), b = coefficient(p, 1), c = coefficient(p, 0);
  const __int128 discriminant = b * b - 4 * a * c;
  if (discriminant < 0) return true;
  const __int128 bound = a > 0 ? 2 * a * x0 + b : -2 * a * x0 - b;  // sqrt(D) <= bound
  return bound >= 0 && discriminant <= bound * bound;
}

std::optional<Polynomial> as_polynomial(const Expr& e, std::optional<Expr>& x);

/// A sum of terms as a polynomial in one symbol.
std::optional<Polynomial> as_polynomial(const std::vector<Expr>& terms, std::optional<Expr>& x) {
  Polynomial sum;
  for (const Expr& t : terms) {
    auto p = as_polynomial(t, x);
    if (!p) return std::nullopt;
    for (const auto& [k, c] : *p) sum[k] = add(sum[k], c);
  }
  return sum;
}

/// `e` as a polynomial in the one symbol `x` (set from the first symbol
/// met), or nullopt when e is not one: sympy's is_polynomial() case.
std::optional<Polynomial> as_polynomial(const Expr& e, std::optional<Expr>& x) {
  switch (e.kind()) {
    case K::Integer: return Polynomial{{0, num(e)}};
    case K::Symbol:
      if (x && !(*x == e)) return std::nullopt;
      x = e;
      return Polynomial{{1, Num::integer(1)}};
    case K::Add: return as_polynomial(e.args(), x);
    case K::Mul:
    case K::Pow: {
      std::vector<Expr> factors = e.args();
      if (e.kind() == K::Pow) {
        const int64_t exponent = *e.args()[1].as_integer();
        if (exponent > 64) return std::nullopt;  // would overflow anyway
        factors.assign(exponent, e.args()[0]);
      }
      Polynomial product{{0, Num::integer(1)}};
      for (const Expr& f : factors) {
        auto p = as_polynomial(f, x);
        if (!p) return std::nullopt;
        Polynomial next;
        for (const auto& [i, a] : product)
          for (const auto& [j, b] : *p) next[i + j] = add(next[i + j], multiply(a, b));
        product = std::move(next);
      }
      return product;
    }
    default: return std::nullopt;
  }
}

/// The univariate branch: a polynomial P in one non-negative
/// symbol x is bounded by P(x0) (x0 = 1 for a positive integer x, else 0)
/// when P' has no real root above x0 and keeps one sign there. Root finding
/// is done for derivatives of degree <= 1 and for those whose coefficients
/// share a sign (no positive roots); anything else stays undecided.
std::optional<int64_t> univariate_bound(const std::vector<Expr>& terms) {
  std::optional<Expr> x;
  std::optional<Polynomial> polynomial = as_polynomial(terms, x);
  if (!polynomial) return std::nullopt;
  Polynomial& coefficients = *polynomial;
  if (!x || coefficients[0].is_infinite()) return std::nullopt;
  int64_t x0;
  if (is_true(facts(*x).positive)) x0 = is_true(facts(*x).even) ? 2 : 1;
  else if (is_true(facts(*x).nonnegative)) x0 = 0;
  else return std::nullopt;
  // P' and its value pattern.
  Polynomial derivative;
  std::vector<Expr> derivative_terms;
  for (const auto& [k, c] : coefficients) {
    if (k == 0 || c.is_zero()) continue;
    derivative[k - 1] = multiply(Num::integer(k), c);
    derivative_terms.push_back(ExprBuilder::mul(
        {ExprBuilder::number(derivative[k - 1]), ExprBuilder::pow(*x, k - 1)}));
  }
  const int64_t degree = derivative.empty() ? 0 : derivative.rbegin()->first;
  bool roots_at_most_x0 = degree == 0;
  if (degree == 1) {  // d1*x + d0 = 0 at x = -d0/d1
    const Num d0 = Num::integer(coefficient(derivative, 0));
    const Num d1 = derivative.at(1);
    const Num scaled = multiply(d1, Num::integer(x0));  // root <= x0  <=>  -d0 <=> d1*x0
    roots_at_most_x0 = d1.is_positive() ? compare(negate(d0), scaled) <= 0
                                        : compare(negate(d0), scaled) >= 0;
  } else if (degree >= 2) {
    bool positive = false, negative = false;
    for (const auto& [k, c] : derivative) (c.is_positive() ? positive : negative) = true;
    roots_at_most_x0 = !(positive && negative);  // Descartes: no positive roots
    if (degree == 2 && !roots_at_most_x0) roots_at_most_x0 = quadratic_roots_at_most(derivative, x0);
  }
  if (!roots_at_most_x0) return std::nullopt;
  Num y = Num::integer(0);
  for (const auto& [k, c] : coefficients)
    y = add(y, multiply(c, Num::integer(checked_pow(x0, k))));
  const Facts d = facts(ExprBuilder::add(std::move(derivative_terms)));
  if (!y.is_negative() && is_true(d.positive)) return y.value;
  if (!y.is_positive() && is_true(d.negative)) return y.value;
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> univariate_monotonic_sign(const std::vector<Expr>& terms) {
  try {
    return univariate_bound(terms);
  } catch (const std::overflow_error&) {  // huge coefficients: we just do not know
    return std::nullopt;
  }
}

/// sympy's _monotonic_sign: the value closest to zero `a` can take given
/// the symbols' signs, or nullopt. A single term is bounded by its sign
/// (and parity); a sum only in the univariate case (sympy's multivariate
/// branch needs a constant, which the callers have split off).
std::optional<int64_t> monotonic_sign(const Expr& a) {
  if (is_number(a)) return std::nullopt;
  if (a.kind() == K::Add) return univariate_monotonic_sign(a.args());
  const Facts& f = facts(a);
  if (is_true(f.positive)) return is_true(f.even) ? 2 : 1;
  if (is_true(f.negative)) return is_true(f.even) ? -2 : -1;
  if (is_true(f.zero) || is_true(f.nonpositive) || is_true(f.nonnegative)) return 0;
  return std::nullopt;
}

}  // namespace exportlens::symbolic

// Add, Mul and Pow with sympy's automatic evaluation: flattening, collecting
// like terms and equal bases, numeric folding, the "2*(x + 1) -> 2*x + 2"
// distribution, and sympy's printing order of Add terms and Mul factors.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

void require_integer_valued(const Expr& e, const char* where) {
  if (e.is_boolean())
    throw std::invalid_argument(std::string("a boolean cannot be an operand of ") + where + ": " +
                                e.str());
}

/// Descending lexicographic order of exponent vectors over the generators
/// sorted by sort key: sympy's Add.as_ordered_terms() with order=None.
void order_terms(std::vector<Expr>& terms) {
  if (terms.size() == 2) {
    // sympy's special case: a positive number plus (negative number)*x
    // prints as "5 - s0", number first.
    auto number_first = [](const Expr& n, const Expr& m) {
      return is_number(n) && num(n).is_positive() && m.kind() == K::Mul &&
             m.args().size() == 2 && is_number(m.args()[0]) && num(m.args()[0]).is_negative();
    };
    if (number_first(terms[0], terms[1])) return;
    if (number_first(terms[1], terms[0])) {
      std::swap(terms[0], terms[1]);
      return;
    }
  }
  std::vector<Expr> gens;
  std::unordered_map<Expr, size_t> position;
  std::vector<std::vector<std::pair<Expr, int64_t>>> powers(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    if (is_number(terms[i])) continue;
    for (const Expr& f : factors_of(split_coefficient(terms[i]).second)) {
      powers[i].push_back(split_power(f));
      if (position.emplace(powers[i].back().first, gens.size()).second)
        gens.push_back(powers[i].back().first);
    }
  }
  std::sort(gens.begin(), gens.end(), sort_key_less);
  for (size_t g = 0; g < gens.size(); ++g) position[gens[g]] = g;
  // Sparse exponent vectors: (generator position, exponent), by position.
  using Monomial = std::vector<std::pair<size_t, int64_t>>;
  struct Row {
    Monomial monomial;
    Num coefficient;
    Expr term;
  };
  std::vector<Row> rows;
  for (size_t i = 0; i < terms.size(); ++i) {
    Row row{{}, split_coefficient(terms[i]).first, terms[i]};
    for (const auto& [base, exponent] : powers[i]) row.monomial.emplace_back(position.at(base), exponent);
    std::sort(row.monomial.begin(), row.monomial.end());
    rows.push_back(std::move(row));
  }
  // Dense lexicographic "a > b" on the sparse form.
  auto greater = [](const Monomial& a, const Monomial& b) -> int {
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) return 1;
      if (i == a.size() || b[j].first < a[i].first) return -1;
      if (a[i].second != b[j].second) return a[i].second > b[j].second ? 1 : -1;
      ++i, ++j;
    }
    return 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (int c = greater(a.monomial, b.monomial)) return c > 0;
    return compare(a.coefficient, b.coefficient) < 0;
  });
  for (size_t i = 0; i < rows.size(); ++i) terms[i] = rows[i].term;
}

/// coefficient * body with body's factors kept as they are (already canonical).
Expr scaled_term(const Num& coefficient, const Expr& body) {
  if (coefficient.is_one()) return body;
  std::vector<Expr> args{ExprBuilder::number(coefficient)};
  for (const Expr& f : factors_of(body)) args.push_back(f);
  return ExprBuilder::raw(K::Mul, std::move(args));
}

/// sympy's flatten of an n-ary Add or Mul: operands of the same `kind`
/// opened up, numbers handed to `fold`, every other operand to `collect`, in order.
template <class Fold, class Collect>
void flatten_operands(std::vector<Expr> operands, K kind, const char* op, Fold fold, Collect collect) {
  for (size_t i = 0; i < operands.size(); ++i) {
    const Expr e = operands[i];
    require_integer_valued(e, op);
    if (e.kind() == kind)
      operands.insert(operands.end(), e.args().begin(), e.args().end());
    else if (is_number(e))
      fold(num(e));
    else
      collect(e);
  }
}

}  // namespace

Expr ExprBuilder::add(std::vector<Expr> terms) {
  Num constant = Num::integer(0);
  std::vector<std::pair<Expr, Num>> collected;  // body, coefficient
  std::unordered_map<Expr, size_t> index;
  flatten_operands(
      std::move(terms), K::Add, "+", [&](const Num& n) { constant = symbolic::add(constant, n); },
      [&](const Expr& t) {
        auto [coefficient, body] = split_coefficient(t);
        auto [it, inserted] = index.emplace(body, collected.size());
        if (inserted)
          collected.emplace_back(body, coefficient);
        else
          collected[it->second].second = symbolic::add(collected[it->second].second, coefficient);
      });
  std::vector<Expr> out;
  for (const auto& [body, coefficient] : collected)
    if (!coefficient.is_zero()) out.push_back(scaled_term(coefficient, body));
  if (!constant.is_zero()) out.push_back(number(constant));
  if (out.empty()) return number(Num::integer(0));
  if (out.size() == 1) return out.front();
  order_terms(out);
  return raw(K::Add, std::move(out));
}

Expr ExprBuilder::mul(std::vector<Expr> factors) {
  Num coefficient = Num::integer(1);
  std::vector<std::pair<Expr, int64_t>> powers;
  std::unordered_map<Expr, size_t> index;
  flatten_operands(
      std::move(factors), K::Mul, "*", [&](const Num& n) { coefficient = multiply(coefficient, n); },
      [&](const Expr& f) {
        auto [base, exponent] = split_power(f);
        auto [it, inserted] = index.emplace(base, powers.size());
        if (inserted) {
          powers.emplace_back(base, exponent);
        } else if (__builtin_add_overflow(powers[it->second].second, exponent, &powers[it->second].second)) {
          throw std::overflow_error("symbolic exponent overflow");
        }
      });
  if (coefficient.is_zero()) return number(coefficient);
  std::vector<Expr> out;
  for (const auto& [base, exponent] : powers)
    out.push_back(exponent == 1 ? base : raw(K::Pow, {base, number(Num::integer(exponent))}));
  if (out.empty()) return number(coefficient);
  // sympy distributes a finite number over a lone sum: 2*(x + 1) -> 2*x + 2.
  if (out.size() == 1 && out.front().kind() == K::Add && !coefficient.is_one() &&
      !coefficient.is_infinite()) {
    std::vector<Expr> distributed;
    for (const Expr& t : out.front().args()) distributed.push_back(multiply_by(coefficient, t));
    return add(std::move(distributed));
  }
  if (coefficient.is_one() && out.size() == 1) return out.front();
  std::sort(out.begin(), out.end(), sort_key_less);
  if (!coefficient.is_one()) out.insert(out.begin(), number(coefficient));
  return raw(K::Mul, std::move(out));
}

Expr ExprBuilder::pow(const Expr& base, int64_t exponent) {
  require_integer_valued(base, "**");
  if (exponent < 0)
    throw std::domain_error("negative exponent " + std::to_string(exponent) +
                            " does not give an integer expression");
  if (exponent == 0) return number(Num::integer(1));
  if (exponent == 1) return base;
  switch (base.kind()) {
    case K::Integer: return number(Num::integer(checked_pow(num(base).value, exponent)));
    case K::Infinity:
      return number(Num::infinite(num(base).infinity > 0 || exponent % 2 == 0 ? 1 : -1));
    case K::Pow: {
      int64_t combined;
      if (__builtin_mul_overflow(*base.args()[1].as_integer(), exponent, &combined))
        throw std::overflow_error("symbolic exponent overflow");
      return pow(base.args()[0], combined);
    }
    case K::Mul: {  // (2*x)**2 -> 4*x**2
      std::vector<Expr> powered;
      for (const Expr& f : base.args()) powered.push_back(pow(f, exponent));
      return mul(std::move(powered));
    }
    default: return raw(K::Pow, {base, number(Num::integer(exponent))});
  }
}

}  // namespace exportlens::symbolic

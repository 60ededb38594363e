// Max and Min as torch's MinMaxBase evaluates them
// (torch/utils/_sympy/functions.py): flatten, drop duplicates, fold the
// numbers, drop arguments another one dominates, order like sympy's ordered().
#include <algorithm>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

K opposite(K kind) { return kind == K::Max ? K::Min : K::Max; }

bool more_extreme(K kind, const Num& a, const Num& b) {
  return kind == K::Max ? compare(a, b) > 0 : compare(a, b) < 0;
}

/// MinMaxBase._collapse_arguments, for one level of nesting: an argument
/// that also appears inside an opposite Min/Max makes that one redundant,
/// and so does a number beyond the opposite's own first (numeric) argument.
void collapse_arguments(K kind, std::vector<Expr>& args) {
  std::optional<Num> bound;
  for (const Expr& a : args)
    if (is_number(a) && (!bound || more_extreme(kind, num(a), *bound))) bound = num(a);
  std::vector<Expr> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const Expr& a = args[i];
    if (a.kind() == opposite(kind)) {
      const Expr& first = a.args().front();
      if (bound && is_number(first) && more_extreme(kind, *bound, num(first))) continue;
      bool dominated = false;
      for (size_t j = 0; j < args.size(); ++j) {
        if (j == i) continue;
        const auto& inner = a.args();
        if (std::find(inner.begin(), inner.end(), args[j]) != inner.end()) dominated = true;
      }
      if (dominated) continue;
    }
    kept.push_back(a);
  }
  args = std::move(kept);
}

/// MinMaxBase._collapse_known_multiplicative_terms: Max(2*x, 3*x) -> 3*x
/// when x's sign is known.
std::optional<Expr> collapse_multiples(K kind, const Expr& a, const Expr& b) {
  auto [ca, ta] = split_coefficient(a);
  auto [cb, tb] = split_coefficient(b);
  if (!(ta == tb)) return std::nullopt;
  bool a_smaller;
  if (is_true(facts(ta).nonnegative)) a_smaller = compare(ca, cb) < 0;
  else if (is_true(facts(ta).nonpositive)) a_smaller = compare(ca, cb) > 0;
  else return std::nullopt;
  if (kind == K::Min) return a_smaller ? a : b;
  return a_smaller ? b : a;
}

/// MinMaxBase._find_localzeros as torch simplifies it.
std::vector<Expr> find_local_zeros(K kind, const std::vector<Expr>& args) {
  std::optional<Num> number;
  std::vector<Expr> others;
  for (const Expr& a : args) {
    if (is_number(a)) {
      if (!number || more_extreme(kind, num(a), *number)) number = num(a);
    } else {
      others.push_back(a);
    }
  }
  if (!number) {
    if (others.size() == 2)
      if (auto c = collapse_multiples(kind, others[0], others[1])) return {*c};
    return others;
  }
  const Expr n = ExprBuilder::number(*number);
  if (others.empty()) return {n};
  if (others.size() == 1) {
    const Facts& f = facts(others[0]);
    if ((number->is_zero() && is_true(f.nonnegative)) || (number->is_one() && is_true(f.positive)))
      return {kind == K::Max ? others[0] : n};
  }
  others.push_back(n);
  return others;
}

}  // namespace

Expr ExprBuilder::min_max(K kind, std::vector<Expr> args) {
  std::vector<Expr> flat;
  for (size_t i = 0; i < args.size(); ++i) {
    const Expr a = args[i];
    if (a.is_boolean())
      throw std::invalid_argument(std::string(kind == K::Max ? "Max" : "Min") +
                                  " of a boolean: " + a.str());
    if (a.kind() == kind) {
      args.insert(args.end(), a.args().begin(), a.args().end());
      continue;
    }
    if (std::find(flat.begin(), flat.end(), a) == flat.end()) flat.push_back(a);
  }
  if (flat.empty()) throw std::invalid_argument("Max/Min needs at least one argument");
  std::sort(flat.begin(), flat.end(), ordered_less);
  collapse_arguments(kind, flat);
  std::vector<Expr> out = find_local_zeros(kind, flat);
  if (out.size() == 1) return out.front();
  std::sort(out.begin(), out.end(), ordered_less);
  return raw(kind, std::move(out));
}

}  // namespace exportlens::symbolic

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

/// MinMaxBase._collapse_arguments' `do`: inside `e`, an argument `a` of the
/// outer Max (say) is redundant in a nested Max, and a nested Min that has it
/// is `a` itself: Max(a, Min(b, Max(a, c))) -> Max(a, Min(b, c)). sympy
/// rebuilds the nested ones unevaluated, but a reread srepr evaluates them,
/// so we do too.
Expr without_redundant(K kind, const Expr& e, const Expr& a) {
  if (e.kind() != K::Max && e.kind() != K::Min) return e;
  const auto& args = e.args();
  const bool has_a = std::find(args.begin(), args.end(), a) != args.end();
  if (has_a && e.kind() != kind) return a;
  std::vector<Expr> kept;
  for (const Expr& x : args)
    if (!(has_a && x == a)) kept.push_back(without_redundant(kind, x, a));
  return ExprBuilder::min_max(e.kind(), std::move(kept));
}

/// The first part of MinMaxBase._collapse_arguments. A number T among the
/// arguments drops an opposite Min/Max whose first argument is known to be
/// beyond T (Max(5, Min(3, x)) -> 5, Min(-3, Max(s0, s1)) -> -3 for positive
/// s0). sympy also takes T from numbers nested in other Min/Max arguments,
/// which is unsound (it turns Min(2, Max(s0**3, Min(-2, s1))) into 2); we
/// keep to the arguments' own numbers.
/// Returns whether a nested argument was rewritten (not just dropped).
bool collapse_arguments(K kind, std::vector<Expr>& args) {
  std::optional<Num> bound;
  for (const Expr& a : args)
    if (is_number(a) && (!bound || more_extreme(kind, num(a), *bound))) bound = num(a);
  std::vector<Expr> kept;
  for (const Expr& a : args) {
    if (bound && a.kind() == opposite(kind)) {
      // Max(T, Min(a0, ...)) drops the Min when a0 < T; Min(T, Max(a0, ...)) when a0 > T.
      const Expr t = ExprBuilder::number(*bound);
      const Expr beyond = ExprBuilder::relation(kind == K::Max ? K::Lt : K::Gt, a.args().front(), t);
      if (beyond.kind() == K::True) continue;
    }
    kept.push_back(a);
  }
  bool rewritten = false;
  for (size_t i = 0; i < kept.size(); ++i) {
    for (size_t j = i + 1; j < kept.size(); ++j) {
      Expr simpler = without_redundant(kind, kept[j], kept[i]);
      rewritten = rewritten || !(simpler == kept[j]);
      kept[j] = std::move(simpler);
    }
  }
  // Collapsing may have made duplicates; sympy's frozenset drops them.
  args.clear();
  for (const Expr& a : kept)
    if (std::find(args.begin(), args.end(), a) == args.end()) args.push_back(a);
  return rewritten;
}

/// The end of MinMaxBase._collapse_arguments: arguments common to every
/// opposite Min/Max are factored out, Max(Min(x, y), Min(x, z)) ->
/// Min(x, Max(y, z)). sympy builds the pieces unevaluated, but evaluates
/// them again when torch reads the srepr back, so we build them evaluated.
/// Returns whether it factored anything.
bool factor_common_arguments(K kind, std::vector<Expr>& args) {
  const K other = opposite(kind);
  std::vector<Expr> others, remaining;
  for (const Expr& a : args) (a.kind() == other ? others : remaining).push_back(a);
  if (others.size() < 2) return false;  // one alone has nothing to share
  std::vector<Expr> common = others.front().args();
  for (const Expr& o : others) {
    std::vector<Expr> kept;
    for (const Expr& c : common)
      if (std::find(o.args().begin(), o.args().end(), c) != o.args().end()) kept.push_back(c);
    common = std::move(kept);
  }
  if (common.empty()) return false;
  auto evaluated = [](K k, std::vector<Expr> parts) { return ExprBuilder::min_max(k, std::move(parts)); };
  std::vector<Expr> differences;
  bool all_differ = true;
  for (const Expr& o : others) {
    std::vector<Expr> rest;
    for (const Expr& a : o.args())
      if (std::find(common.begin(), common.end(), a) == common.end()) rest.push_back(a);
    if (rest.empty()) all_differ = false;
    else differences.push_back(evaluated(other, std::move(rest)));
  }
  std::vector<Expr> factored = common;
  if (all_differ) factored.push_back(evaluated(kind, std::move(differences)));
  remaining.push_back(evaluated(other, std::move(factored)));
  args = std::move(remaining);
  return true;
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
  // A rewritten argument list is evaluated again, as torch's reread of the
  // srepr would.
  if (collapse_arguments(kind, flat)) return min_max(kind, std::move(flat));
  if (flat.size() > 1 && factor_common_arguments(kind, flat)) return min_max(kind, std::move(flat));
  std::vector<Expr> out = find_local_zeros(kind, flat);
  if (out.size() == 1) return out.front();
  std::sort(out.begin(), out.end(), ordered_less);
  return raw(kind, std::move(out));
}

}  // namespace exportlens::symbolic

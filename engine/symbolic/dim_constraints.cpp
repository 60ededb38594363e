// torch 2.13's DimConstraints: solve, forced_specializations,
// prettify_results and _process_derived_dim_roots, on structured data.
#include "engine/symbolic/dim_constraints.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/linear_relation.h"
#include "engine/symbolic/python_printer.h"
#include "engine/symbolic/solve.h"

namespace exportlens::symbolic {

using namespace constraints;

namespace {

using K = Expr::Kind;

struct DimSolution {  // one source solved: a constant, a bound, or an expression of a root
  enum class Kind { Static, Lower, Upper, Equivalence } kind;
  std::string source;
  int64_t value = 0;  // Static / Lower / Upper
  Expr expr;          // Equivalence, over symbols (and tmp roots)
};

struct FixEntry {  // prettify_results' per-name dict
  std::optional<int64_t> min, max;
  bool max_infinite = false;  // an introduced root's max computed from int_oo (torch prints "max=oo")
  std::optional<int64_t> eq_int;
  std::optional<Expr> eq_expr;
  bool has_eq() const { return eq_int || eq_expr; }
};

/// What name_to_dim knows of a Dim.
struct NamedDimInfo {
  bool derived = false;
  std::string root;  // derived: root name
  int64_t coeff = 1, offset = 0;
  int64_t min = 0;
  Num max = Num::infinite(1);
};

}  // namespace

class DimConstraints::Impl {
 public:
  Impl(std::vector<std::pair<std::string, std::vector<std::string>>> symbol_to_source,
                 const ShapeEnv& env, std::set<std::string> marked_dynamic,
                 std::map<std::string, std::string> debug_names)
      : symbol_to_source_(std::move(symbol_to_source)),
        env_(env),
        marked_dynamic_(std::move(marked_dynamic)),
        debug_names_(std::move(debug_names)) {}

  /// Returns whether the expression is trivially true.
  bool add(const Expr& expr) {
    if (expr.kind() == K::True) return true;
    if (auto v = hinted_truth(expr); v && !*v) inconsistencies_.push_back(expr.str() + " is inconsistent!");
    if (expr.kind() == K::Ne || expr.kind() == K::Or || expr.kind() == K::And || !is_relation(expr.kind()) ||
        has_unsupported(expr) || has_clean_division(expr))
      return false;
    const auto free = expr.free_symbols();
    if (free.empty()) return true;
    if (free.size() > 1) {
      if (std::find(multivariate_.begin(), multivariate_.end(), expr) == multivariate_.end())
        multivariate_.push_back(expr);
      return false;
    }
    const std::string s = free.front();
    const size_t old_congruences = congruence_count(s);
    const bool power = has_power(expr);
    std::optional<LinearRelation> cross = power ? quadratic_equation(expr, s) : divided_equation(expr, s);
    if (power && !cross) {
      // Other polynomial relations go to sympy's reduce_inequalities, not solved
      // here; but torch rewrites them with congruences first, so the // and % in
      // them still give their congruences ((-1 + s//10)**2 > 1: s % 10 == 0).
      polynomial(expr.args()[0], s);
      polynomial(expr.args()[1], s);
      return false;
    }
    auto lhs = cross ? std::optional<Linear>() : linear(expr.args()[0], s);
    auto rhs = cross ? std::optional<Linear>() : linear(expr.args()[1], s);
    if (!cross && (!lhs || !rhs)) return false;  // torch: "Failed to reduce inequalities" keeps it raw; no fix
    LinearRelation rel = cross ? *cross : LinearRelation{expr.kind(), {lhs->a + -rhs->a, lhs->b + -rhs->b}};
    // sympy evaluates the rewritten relation: constants, and signs of a*s + b for s >= 1.
    std::optional<bool> decided;
    if (rel.form.a.zero()) decided = constant_truth(rel);
    else if (is_positive_symbol(s)) decided = truth_for_positive_symbol(rel);
    if (decided) {
      if (*decided) return old_congruences == congruence_count(s);
      inconsistencies_.push_back(expr.str() + ", obtained by rewriting with congruences, is inconsistent!");
      return false;
    }
    if (rel.kind == K::Eq) with_equalities_.insert(s);
    auto& list = univariate_[s];
    list.push_back(rel);
    if (std::find(univariate_order_.begin(), univariate_order_.end(), s) == univariate_order_.end())
      univariate_order_.push_back(s);
    return false;
  }

  void add_equality(const std::string& source, const Expr& expr) {
    if (auto v = expr.as_integer()) results_.push_back({DimSolution::Kind::Static, source, *v, {}});
    else equivalences_.emplace_back(source, expr);
  }

  void solve() {
    raise_inconsistencies();
    while (!with_equalities_.empty()) {
      const std::string s = *with_equalities_.begin();
      with_equalities_.erase(with_equalities_.begin());
      const auto rels = univariate_[s];
      univariate_.erase(s);
      std::optional<int64_t> value;
      for (const auto& r : rels)
        if (r.kind == K::Eq) value = solution(r.form).floor();
      if (!value) continue;
      results_.push_back({DimSolution::Kind::Static, first_source(s), *value, {}});
      substitutions_[s] = *value;
      const auto multi = multivariate_;
      multivariate_.clear();
      for (const Expr& e : multi) add(e.substitute({{s, Expr(*value)}}));
      raise_inconsistencies();
    }
    solve_congruences();
    for (const std::string& s : univariate_order_) {
      auto it = univariate_.find(s);
      if (it == univariate_.end()) continue;
      std::optional<int64_t> lower, upper;
      for (const auto& r : it->second) {
        const Rational q = solution(r.form);
        K kind = r.kind;
        if (r.form.a.negative()) kind = mirrored(kind);
        auto raise_lower = [&](int64_t v) { lower = lower ? std::max(*lower, v) : v; };
        auto drop_upper = [&](int64_t v) { upper = upper ? std::min(*upper, v) : v; };
        switch (kind) {
          case K::Ge: raise_lower(q.ceil()); break;
          case K::Gt: raise_lower(q.floor() + 1); break;
          case K::Le: drop_upper(q.floor()); break;
          case K::Lt: drop_upper(q.ceil() - 1); break;
          case K::Eq: raise_lower(q.floor()); drop_upper(q.floor()); break;
          default: break;
        }
      }
      const std::string src = first_source(s);
      if (lower && upper && *lower == *upper) {
        results_.push_back({DimSolution::Kind::Equivalence, src, 0, Expr(*lower)});
        continue;
      }
      if (lower) results_.push_back({DimSolution::Kind::Lower, src, *lower, {}});
      if (upper) results_.push_back({DimSolution::Kind::Upper, src, *upper, {}});
    }
    const auto eqs = equivalences_;
    equivalences_.clear();
    std::map<std::string, Expr> subs;
    for (const auto& [s, v] : substitutions_) subs.emplace(s, Expr(v));
    for (const auto& [source, e] : eqs) add_equality(source, subs.empty() ? e : e.substitute(subs));
    for (const auto& [source, e] : equivalences_) results_.push_back({DimSolution::Kind::Equivalence, source, 0, e});
  }

  std::vector<std::pair<std::string, std::string>> forced_specializations() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [s, v] : substitutions_) {
      if (!marked_dynamic_.count(s)) continue;
      const std::string src = first_source(s);
      auto it = debug_names_.find(src);
      out.emplace_back(debug_names_.empty() ? src : (it == debug_names_.end() ? src : it->second) + " = " + src,
                       std::to_string(v));
    }
    return out;
  }

  /// prettify_results: the message tail and the fix lines.
  std::string prettify(const DynamicShapesSpec& spec, std::vector<std::pair<std::string, std::string>> forced,
                       std::vector<SuggestedFix>& fixes) const {
    if (debug_names_.empty()) return "";
    std::map<std::string, NamedDimInfo> name_to_dim = dims_of(spec);
    std::map<std::string, FixEntry> results;
    for (const DimSolution& r : results_) collect(r, results);
    std::string buf;
    std::sort(forced.begin(), forced.end(), [](const auto& a, const auto& b) {
      return a.first.substr(a.first.find(" = ") + 3) < b.first.substr(b.first.find(" = ") + 3);
    });
    if (!forced.empty()) {
      std::set<std::string> names;
      for (const auto& [k, v] : forced) {
        const std::string dim = k.substr(0, k.find(" = "));
        auto it = name_to_dim.find(dim);
        names.insert(it != name_to_dim.end() && it->second.derived ? it->second.root : dim);
      }
      std::string joined;
      for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
      buf += "Specializations unexpectedly required (" + joined +
             ")! For more information, run with TORCH_LOGS=\"+dynamic\".\n";
      for (const auto& [k, v] : forced)
        buf += "  - solving the guards generated for " + k + " resulted in a specialized value of " + v + ".\n";
    }
    process_derived_dim_roots(results, name_to_dim);
    std::vector<std::string> keys;
    for (const auto& [k, c] : results) keys.push_back(k);
    std::stable_sort(keys.begin(), keys.end(),
                     [&](const std::string& a, const std::string& b) { return source_of_name(a) < source_of_name(b); });
    std::vector<SuggestedFix> dims, others;
    for (const std::string& k : keys) {
      const FixEntry& c = results.at(k);
      if (c.has_eq()) {
        if (c.eq_int) others.push_back({k, k + " = " + std::to_string(*c.eq_int)});
        else if (supported_equivalence(*c.eq_expr)) others.push_back({k, k + " = " + c.eq_expr->str()});
        continue;
      }
      std::optional<int64_t> lo = c.min, hi = c.max;
      if (lo && *lo == 2) lo.reset();
      std::string text = k + " = Dim('" + k + "'";
      if (lo) text += ", min=" + std::to_string(*lo);
      if (hi) text += ", max=" + std::to_string(*hi);
      else if (c.max_infinite) text += ", max=oo";
      dims.push_back({k, text + ")"});
    }
    fixes = dims;
    fixes.insert(fixes.end(), others.begin(), others.end());
    if (!fixes.empty()) {
      buf += "\nSuggested fixes:\n  ";
      for (size_t i = 0; i < fixes.size(); ++i) buf += (i ? "\n  " : "") + fixes[i].text;
    }
    return buf;
  }

 private:
  std::string first_source(const std::string& symbol) const {
    for (const auto& [s, sources] : symbol_to_source_)
      if (s == symbol && !sources.empty()) return sources.front();
    return symbol;
  }

  std::optional<bool> hinted_truth(const Expr& e) const {
    const auto h = env_.hint(e);
    if (!h) return std::nullopt;
    return *h != 0;
  }

  /// torch's simplify() made an exact division (CleanDiv) of a // b where a
  /// guard proved a % b == 0; the solver does not support CleanDiv.
  bool has_clean_division(const Expr& e) const {
    if (!env_.has_divisibility_facts() || !contains_kind(e, K::FloorDiv)) return false;
    // Guards repeat their subtrees, within one and across copies: each node is asked once.
    if (auto it = clean_division_.find(e.node()); it != clean_division_.end()) return it->second.second;
    const auto clean_below = [this](const Expr& a) { return has_clean_division(a); };
    const bool clean = (e.kind() == K::FloorDiv && env_.is_divisible(e.args()[0], e.args()[1])) ||
                       std::any_of(e.args().begin(), e.args().end(), clean_below);
    clean_division_.emplace(e.node(), std::make_pair(e, clean));
    return clean;
  }

  static bool has_unsupported(const Expr& e) { return contains_kind(e, K::Max) || contains_kind(e, K::Min); }

  static bool has_power(const Expr& e) { return contains_kind(e, K::Pow); }

  using Polynomial = std::vector<Rational>;  // coefficients of s^0, s^1, s^2

  /// e as a polynomial of degree <= 2 in s after rewrite_with_congruences
  /// (its // and % leaves go through linear(), which records the congruences).
  std::optional<Polynomial> polynomial(const Expr& e, const std::string& s) {
    auto times = [](const Polynomial& x, const Polynomial& y) -> std::optional<Polynomial> {
      Polynomial out(3, Rational::of(0));
      for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = 0; j < y.size(); ++j) {
          if (x[i].zero() || y[j].zero()) continue;
          if (i + j > 2) return std::nullopt;
          out[i + j] = out[i + j] + x[i] * y[j];
        }
      return out;
    };
    switch (e.kind()) {
      case K::Add: {
        Polynomial sum(3, Rational::of(0));
        for (const Expr& a : e.args()) {
          auto t = polynomial(a, s);
          if (!t) return std::nullopt;
          for (size_t i = 0; i < 3; ++i) sum[i] = sum[i] + (*t)[i];
        }
        return sum;
      }
      case K::Mul:
      case K::Pow: {
        const bool pow = e.kind() == K::Pow;
        const auto exponent = pow ? e.args()[1].as_integer() : std::optional<int64_t>();
        if (pow && (!exponent || *exponent < 0 || *exponent > 2)) return std::nullopt;
        Polynomial prod{Rational::of(1), Rational::of(0), Rational::of(0)};
        const size_t n = pow ? static_cast<size_t>(*exponent) : e.args().size();
        for (size_t i = 0; i < n; ++i) {
          auto t = polynomial(pow ? e.args()[0] : e.args()[i], s);
          if (!t) return std::nullopt;
          auto next = times(prod, *t);
          if (!next) return std::nullopt;
          prod = *next;
        }
        return prod;
      }
      default: {
        auto l = linear(e, s);
        if (!l) return std::nullopt;
        return Polynomial{l->b, l->a, Rational::of(0)};
      }
    }
  }

  /// A quadratic Eq over a positive size symbol, as sympy's reduce_inequalities
  /// solves it ((s/8)**2 == 16 gives s == 32): the hint is one root (the guard
  /// holds at the example); when the other root (Vieta) is not a second positive
  /// value, the relation is s == hint. Anything else is left out.
  std::optional<LinearRelation> quadratic_equation(const Expr& expr, const std::string& s) {
    if (expr.kind() != K::Eq || !is_positive_symbol(s)) return std::nullopt;
    auto lhs = polynomial(expr.args()[0], s), rhs = polynomial(expr.args()[1], s);
    if (!lhs || !rhs) return std::nullopt;
    Polynomial p(3);
    for (size_t i = 0; i < 3; ++i) p[i] = (*lhs)[i] + -(*rhs)[i];
    if (p[2].zero()) return LinearRelation{K::Eq, {p[1], p[0]}};
    const Rational hint = Rational::of(hint_value(Expr::symbol(s)));
    const Rational at_hint = p[0] + p[1] * hint + p[2] * hint * hint;
    if (!at_hint.zero()) return std::nullopt;
    const Rational other = Rational::of(-p[1].num * p[2].den, p[1].den * p[2].num) + -hint;  // -B/A - root
    if (!other.negative() && !other.zero() && !(other.num == hint.num && other.den == hint.den)) return std::nullopt;
    return LinearRelation{K::Eq, {Rational::of(1), -hint}};
  }

  bool constant_truth(const LinearRelation& r) const {
    const Rational& b = r.form.b;
    switch (r.kind) {
      case K::Eq: return b.zero();
      case K::Lt: return b.negative();
      case K::Le: return b.negative() || b.zero();
      case K::Gt: return !b.negative() && !b.zero();
      case K::Ge: return !b.negative();
      default: return true;
    }
  }

  size_t congruence_count(const std::string& s) const {
    size_t n = 0;
    if (auto it = congruences_.find(s); it != congruences_.end()) n += it->second.size();
    if (auto it = symbolic_congruences_.find(s); it != symbolic_congruences_.end()) n += it->second.size();
    return n;
  }

  /// Backed size symbols (and phantom roots) are positive integers for sympy.
  bool is_positive_symbol(const std::string& s) const {
    const SymbolRecord* r = env_.find_symbol(s);
    return r && r->hint.has_value();
  }

  /// Whether x == c * y for an integer c (as linear forms); c if so.
  static std::optional<Rational> ratio(const Linear& x, const Linear& y) {
    if (y.a.zero() && y.b.zero()) return std::nullopt;
    const Rational c = !y.a.zero() ? Rational::of(x.a.num * y.a.den, x.a.den * y.a.num)
                                   : Rational::of(x.b.num * y.b.den, x.b.den * y.b.num);
    const Linear scaled{c * y.a, c * y.b};
    if (!(scaled.a.num == x.a.num && scaled.a.den == x.a.den && scaled.b.num == x.b.num && scaled.b.den == x.b.den))
      return std::nullopt;
    return c;
  }

  static Rational solution(const Linear& f) {  // s = -b / a
    return Rational::of(-f.b.num * f.a.den, f.b.den * f.a.num);
  }

  int64_t hint_value(const Expr& e) const { return env_.hint(e).value_or(0); }

  /// rewrite_with_congruences + linearization for one symbol.
  std::optional<Linear> linear(const Expr& e, const std::string& s) {
    switch (e.kind()) {
      case K::Integer: return Linear{Rational::of(0), Rational::of(*e.as_integer())};
      case K::Symbol:
        if (e.symbol_name() != s) return std::nullopt;
        return Linear{Rational::of(1), Rational::of(0)};
      case K::Add: {
        Linear sum{Rational::of(0), Rational::of(0)};
        for (const Expr& a : e.args()) {
          auto t = linear(a, s);
          if (!t) return std::nullopt;
          sum = {sum.a + t->a, sum.b + t->b};
        }
        return sum;
      }
      case K::Mul: {
        Linear prod{Rational::of(0), Rational::of(1)};
        bool has_symbol = false;
        for (const Expr& a : e.args()) {
          auto t = linear(a, s);
          if (!t) return std::nullopt;
          const bool t_symbolic = !t->a.zero();
          if (t_symbolic && has_symbol) return std::nullopt;  // nonlinear
          prod = {prod.a * t->b + t->a * prod.b, prod.b * t->b};
          has_symbol = has_symbol || t_symbolic;
        }
        return prod;
      }
      case K::FloorDiv:
      case K::Mod: {
        const auto divisor = e.args()[1].as_integer();
        const Expr& base = e.args()[0];
        auto lb = linear(base, s);
        if (!lb) return std::nullopt;
        if (!divisor) return symbolic_division(e, *lb, s);
        if (*divisor == 0) return std::nullopt;
        const int64_t k = python_mod(hint_value(base), *divisor);
        const Expr rest = base - Expr(k);
        if (!(Expr::mod(rest, Expr(*divisor)) == Expr(0))) {
          auto& list = congruences_[s];
          if (std::none_of(list.begin(), list.end(), [&](const Congruence& c) { return c.base == rest && c.divisor == *divisor; }))
            list.push_back({rest, *divisor});
        }
        if (e.kind() == K::Mod) return Linear{Rational::of(0), Rational::of(k)};
        const Rational inv = Rational::of(1, *divisor);
        return Linear{lb->a * inv, (lb->b + Rational::of(-k)) * inv};
      }
      default: return std::nullopt;
    }
  }

  /// Eq(b // d, c) with a symbolic d and a constant c: torch rewrites b // d as
  /// (b - k) / d, and its solver clears the denominator: b - k == c * d.
  std::optional<LinearRelation> divided_equation(const Expr& expr, const std::string& s) {
    if (expr.kind() != K::Eq) return std::nullopt;
    Expr div = expr.args()[0], other = expr.args()[1];
    if (div.kind() != K::FloorDiv) std::swap(div, other);
    if (div.kind() != K::FloorDiv || div.args()[1].is_integer() || !other.is_integer()) return std::nullopt;
    const Expr& base = div.args()[0];
    const Expr& divisor = div.args()[1];
    auto lb = linear(base, s), ld = linear(divisor, s);
    if (!lb || !ld) return std::nullopt;
    const int64_t dv = hint_value(divisor);
    if (dv == 0) return std::nullopt;
    const int64_t k = python_mod(hint_value(base), dv);
    const Linear rest{lb->a, lb->b + Rational::of(-k)};
    if (!ratio(rest, *ld)) {
      const Expr congruence = Expr::mod(base - Expr(k), divisor);
      auto& list = symbolic_congruences_[s];
      if (std::find(list.begin(), list.end(), congruence) == list.end()) list.push_back(congruence);
    }
    const Rational c = Rational::of(*other.as_integer());
    return LinearRelation{K::Eq, {rest.a + -(c * ld->a), rest.b + -(c * ld->b)}};
  }

  /// b // d and b % d with a symbolic d: the hints give b % d == k; the
  /// congruence (b - k) % d vanishes when b - k is a multiple of d (torch's
  /// sympy Mod evaluates to 0 then), and b // d is then that multiple.
  std::optional<Linear> symbolic_division(const Expr& e, const Linear& lb, const std::string& s) {
    const Expr& base = e.args()[0];
    const Expr& div = e.args()[1];
    auto ld = linear(div, s);
    if (!ld) return std::nullopt;
    const int64_t dv = hint_value(div);
    if (dv == 0) return std::nullopt;
    const int64_t k = python_mod(hint_value(base), dv);
    const Linear rest{lb.a, lb.b + Rational::of(-k)};
    const auto c = ratio(rest, *ld);
    if (!c || !c->integral()) {
      const Expr congruence = Expr::mod(base - Expr(k), div);
      auto& list = symbolic_congruences_[s];
      if (std::find(list.begin(), list.end(), congruence) == list.end()) list.push_back(congruence);
      if (e.kind() == K::FloorDiv) return std::nullopt;
    }
    if (e.kind() == K::Mod) return Linear{Rational::of(0), Rational::of(k)};
    return Linear{Rational::of(0), *c};
  }

  void raise_inconsistencies() {
    if (inconsistencies_.empty()) return;
    std::string msg = "The following inconsistencies were found:";
    for (const auto& i : inconsistencies_) msg += "\n" + i;
    inconsistencies_.clear();
    throw std::runtime_error(msg);
  }

  void solve_congruences() {
    for (const auto& [s, stored] : congruences_) {
      // Reduce c*s + a == 0 (mod d) to s == r (mod m), then combine them: as
      // sympy's solve_linear(c*s + a - d*tmp, s), s = (d/c)*tmp - a/c, kept
      // when both are integers. c is rational where the base held a division
      // (timm's window count (s - 1)//4 + 1 is s/4 under s % 4 == 0, and
      // (s/4) % 2 == 0 makes s a multiple of 8).
      const std::vector<Congruence> list = stored;  // linear() may add to it
      std::optional<std::pair<int64_t, int64_t>> combined;  // (remainder, modulus)
      for (const Congruence& c : list) {
        auto l = linear(c.base, s);
        if (!l || l->a.zero()) continue;
        const Rational inverse = Rational::of(l->a.den, l->a.num);
        const Rational modulus = Rational::of(c.divisor) * inverse, remainder = -l->b * inverse;
        if (!modulus.integral() || !remainder.integral()) continue;
        const int64_t m = modulus.num < 0 ? -modulus.num : modulus.num;
        if (m == 0) continue;
        const int64_t r = python_mod(remainder.num, m);
        combined = combined ? merge(*combined, {r, m}) : std::make_pair(r, m);
        if (!combined) break;
      }
      if (!combined) continue;
      auto [r, m] = *combined;
      if (m <= 1) continue;
      if (auto sub = substitutions_.find(s); sub != substitutions_.end() && python_mod(sub->second - r, m) == 0)
        continue;
      const std::string src = first_source(s);
      auto dn = debug_names_.find(src);
      const std::string tmp = "_" + (dn == debug_names_.end() ? src : dn->second);
      tmp_roots_.insert(tmp);
      results_.push_back({DimSolution::Kind::Equivalence, src, 0, Expr(m) * Expr::symbol(tmp) + Expr(r)});
    }
  }

  /// The smallest (r, m) with x == r1 (mod m1) and x == r2 (mod m2), if any.
  static std::optional<std::pair<int64_t, int64_t>> merge(std::pair<int64_t, int64_t> a, std::pair<int64_t, int64_t> b) {
    const int64_t g = gcd(a.second, b.second);
    if ((b.first - a.first) % g != 0) return std::nullopt;
    const int64_t l = a.second / g * b.second;
    for (int64_t x = a.first; x < l; x += a.second)
      if (python_mod(x - b.first, b.second) == 0) return std::make_pair(x, l);
    return std::nullopt;
  }

  // ---- prettify helpers

  std::string name_of_source(const std::string& src) const {
    auto it = debug_names_.find(src);
    return it == debug_names_.end() ? "" : it->second;
  }

  /// transform(x, inverse=True) for sorting: a Dim name back to its first source.
  std::string source_of_name(const std::string& name) const {
    for (const auto& [s, sources] : symbol_to_source_)
      for (const std::string& src : sources)
        if (name_of_source(src) == name) return src;
    for (const auto& [src, n] : debug_names_)
      if (n == name) return src;
    return name;
  }

  void relation_with_digit(FixEntry& e, K op, int64_t digit) const {
    switch (op) {
      case K::Le: e.max = digit; break;
      case K::Lt: e.max = digit - 1; break;
      case K::Ge: e.min = digit; break;
      case K::Gt: e.min = digit + 1; break;
      default: e.eq_int = digit; e.eq_expr.reset(); break;
    }
  }

  void collect(const DimSolution& r, std::map<std::string, FixEntry>& results) const {
    const std::string left = name_of_source(r.source);
    switch (r.kind) {
      case DimSolution::Kind::Static:
        if (left.empty() || left == std::to_string(r.value)) return;
        relation_with_digit(results[left], K::Eq, r.value);
        return;
      case DimSolution::Kind::Lower:
        if (!left.empty()) relation_with_digit(results[left], K::Ge, r.value);
        return;
      case DimSolution::Kind::Upper:
        if (!left.empty()) relation_with_digit(results[left], K::Le, r.value);
        return;
      case DimSolution::Kind::Equivalence: break;
    }
    // "source == expr" over sources: every symbol must map to a Dim name (or a new root).
    bool mentions_dim = !left.empty();
    std::map<std::string, Expr> to_names;
    for (const std::string& s : r.expr.free_symbols()) {
      if (tmp_roots_.count(s)) continue;
      const std::string n = name_of_source(first_source(s));
      if (n.empty()) return;  // torch's sympify of a raw source fails: no fix
      mentions_dim = true;
      to_names.emplace(s, Expr::symbol(n));
    }
    if (!mentions_dim) return;
    const std::string key = left.empty() ? r.source : left;
    const Expr rhs = to_names.empty() ? r.expr : r.expr.substitute(to_names);
    if (auto v = rhs.as_integer()) {
      relation_with_digit(results[key], K::Eq, *v);
      return;
    }
    if (rhs.is_symbol() && rhs.symbol_name() == key) return;
    results[key].eq_expr = rhs;
    results[key].eq_int.reset();
  }

  static bool supported_equivalence(const Expr& e) {
    if (e.is_symbol()) return true;
    if (e.kind() == K::Add) {
      const auto& a = e.args();
      if (a.size() != 2) return false;
      return (a[0].is_integer() && supported_equivalence(a[1])) || (a[1].is_integer() && supported_equivalence(a[0]));
    }
    if (e.kind() == K::Mul) {
      const auto& a = e.args();
      return a.size() == 2 && a[0].is_integer() && a[1].is_symbol();
    }
    return false;
  }

  static std::map<std::string, NamedDimInfo> dims_of(const DynamicShapesSpec& spec) {
    std::map<std::string, NamedDimInfo> out;
    auto plain = [&](const std::string& name) {
      const DimDecl& d = spec.dims.at(name);
      NamedDimInfo i;
      i.min = d.min_value();
      i.max = d.max_value();
      out[name] = i;
    };
    for (const auto& [n, in] : spec.inputs)
      DynamicShapesSpec::for_each_dim(in, [&](const DimSpec& d) {
        if (d.kind == DimSpec::Kind::Named) plain(d.dim);
        if (d.kind == DimSpec::Kind::Derived) {
          NamedDimInfo i;
          i.derived = true;
          i.root = d.dim;
          i.coeff = d.coeff;
          i.offset = d.offset;
          out[DynamicShapesSpec::derived_name(d)] = i;
          plain(d.dim);
        }
      });
    return out;
  }

  static bool check_same_range(const FixEntry& c, const NamedDimInfo& dim) {
    if (dim.derived || !(c.min || c.max)) return false;
    const int64_t cmin = c.min.value_or(2);
    const bool min_ok = (dim.min < 2 && cmin == 2) || dim.min == cmin;
    const Num cmax = c.max ? Num::integer(*c.max) : Num::infinite(1);
    return min_ok && dim.max == cmax;
  }

  void process_derived_dim_roots(std::map<std::string, FixEntry>& results,
                                 std::map<std::string, NamedDimInfo>& name_to_dim) const {
    // 1) Newly introduced roots ("dx = 3*_dx + 1").
    std::map<std::string, std::string> introduced;  // new root -> old root
    for (auto& [k, c] : std::map<std::string, FixEntry>(results)) {
      if (!c.eq_expr) continue;
      const auto syms = c.eq_expr->free_symbols();
      if (syms.size() != 1 || name_to_dim.count(syms[0])) continue;
      const std::string root = syms[0];
      introduced[root] = k;
      const auto m = c.eq_expr->evaluate({{root, 1}}), r = c.eq_expr->evaluate({{root, 0}});
      if (!m || !r) continue;
      const int64_t modulus = *m - *r, remainder = *r;
      const int64_t c_min = c.min.value_or(2);
      const int64_t lo = ceil_div(c_min - remainder, modulus);
      FixEntry nr;
      nr.min = lo;
      if (c.max) nr.max = floor_div(*c.max - remainder, modulus);
      else nr.max_infinite = true;
      results[root] = nr;
      NamedDimInfo info;
      info.min = lo;
      info.max = nr.max ? Num::integer(*nr.max) : Num::infinite(1);
      name_to_dim[root] = info;
      results[k].min.reset();
      results[k].max.reset();
    }
    for (const auto& [new_root, old_root] : introduced) {
      for (auto& [k, c] : results) {
        if (!c.eq_expr) continue;
        const auto syms = c.eq_expr->free_symbols();
        if (syms.size() == 1 && syms[0] == old_root && results[old_root].eq_expr)
          c.eq_expr = c.eq_expr->substitute({{old_root, *results[old_root].eq_expr}});
      }
    }
    // 2) Root swapping.
    std::set<std::string> modified_roots;
    for (const auto& [k, c] : results) {
      auto it = name_to_dim.find(k);
      if (it == name_to_dim.end()) continue;
      if (!it->second.derived && (c.min || c.max)) modified_roots.insert(k);
      else if (c.eq_expr) {
        const auto syms = c.eq_expr->free_symbols();
        if (!syms.empty()) modified_roots.insert(syms.front());
      }
    }
    for (const auto& [n, o] : introduced) modified_roots.erase(n);
    std::map<std::string, FixEntry> modified_values;
    for (const std::string& mroot : modified_roots) {
      bool swapped = true;
      if (auto it = results.find(mroot); it != results.end()) {
        const FixEntry& c = it->second;
        if (c.min || c.max || c.eq_int) {
          if (!name_to_dim.count(mroot) || !check_same_range(c, name_to_dim.at(mroot))) modified_values[mroot] = c;
          swapped = false;
        }
      }
      if (!swapped) continue;
      for (const auto& [k, c] : results) {
        auto it = name_to_dim.find(k);
        if (it == name_to_dim.end() || !it->second.derived || it->second.root != mroot) continue;
        if (!(c.min || c.max)) continue;
        const NamedDimInfo& d = it->second;
        FixEntry root_range;
        if (c.min) root_range.min = Rational::of(*c.min - d.offset, d.coeff).floor();
        if (c.max) root_range.max = Rational::of(*c.max - d.offset, d.coeff).floor();
        if (!name_to_dim.count(mroot) || !check_same_range(root_range, name_to_dim.at(mroot))) {
          modified_values[mroot] = root_range;
          break;
        }
      }
    }
    for (auto it = results.begin(); it != results.end();) {
      auto d = name_to_dim.find(it->first);
      if (d != name_to_dim.end() && (d->second.derived || modified_roots.count(it->first))) it = results.erase(it);
      else ++it;
    }
    for (const auto& [k, v] : modified_values) results[k] = v;
  }

  std::vector<std::pair<std::string, std::vector<std::string>>> symbol_to_source_;
  const ShapeEnv& env_;
  // has_clean_division's answer by node (the Expr keeps the node alive, so its address stays its own).
  mutable std::unordered_map<const ExprNode*, std::pair<Expr, bool>> clean_division_;
  std::set<std::string> marked_dynamic_;
  std::map<std::string, std::string> debug_names_;
  std::map<std::string, std::vector<LinearRelation>> univariate_;
  std::vector<std::string> univariate_order_;
  std::set<std::string> with_equalities_;
  std::map<std::string, int64_t> substitutions_;
  std::map<std::string, std::vector<Congruence>> congruences_;
  std::map<std::string, std::vector<Expr>> symbolic_congruences_;  // never solved, only counted
  std::vector<Expr> multivariate_;
  std::vector<std::pair<std::string, Expr>> equivalences_;
  std::vector<DimSolution> results_;
  std::set<std::string> tmp_roots_;
  std::vector<std::string> inconsistencies_;
};

DimConstraints::DimConstraints(std::vector<std::pair<std::string, std::vector<std::string>>> symbol_to_source,
                               const ShapeEnv& env, std::set<std::string> marked_dynamic,
                               std::map<std::string, std::string> debug_names)
    : impl_(std::make_unique<Impl>(std::move(symbol_to_source), env, std::move(marked_dynamic),
                                   std::move(debug_names))) {}
DimConstraints::~DimConstraints() = default;

bool DimConstraints::add(const Expr& expr) { return impl_->add(expr); }
void DimConstraints::add_equality(const std::string& source, const Expr& expr) { impl_->add_equality(source, expr); }
void DimConstraints::solve() { impl_->solve(); }
std::vector<std::pair<std::string, std::string>> DimConstraints::forced_specializations() const {
  return impl_->forced_specializations();
}
std::string DimConstraints::prettify(const DynamicShapesSpec& spec,
                                     std::vector<std::pair<std::string, std::string>> forced,
                                     std::vector<SuggestedFix>& fixes) const {
  return impl_->prettify(spec, std::move(forced), fixes);
}

}  // namespace exportlens::symbolic

// ShapeEnv: torch 2.13's create_symbol / _evaluate_expr / _maybe_guard_rel /
// _refine_ranges / _set_replacement / guard_or_defer_runtime_assert, for the
// linear shape arithmetic that exported programs use.
#include "engine/symbolic/shape_env.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <numeric>
#include <set>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/solve.h"
#include "engine/symbolic/solve_memo.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

bool is_size_symbol_name(const std::string& n) {
  return n.size() > 1 && n[0] == 's' && std::isdigit(static_cast<unsigned char>(n[1]));
}

/// The first node of `kind` in e (preorder) that `wanted` accepts. Only
/// subtrees holding that kind are walked, and the walk stops at the first:
/// kilobyte-long guards are asked this after every guard.
std::optional<Expr> first_of(const Expr& e, K kind, const std::function<bool(const Expr&)>& wanted) {
  if (!contains_kind(e, kind)) return std::nullopt;
  if (e.kind() == kind && wanted(e)) return e;
  for (const Expr& a : e.args())
    if (auto found = first_of(a, kind, wanted)) return found;
  return std::nullopt;
}

Expr negation(const Expr& relation) { return Expr::logical_not(relation); }

/// The same node kind over new operands, through the canonical constructors.
Expr rebuild(const Expr& e, const std::vector<Expr>& a) {
  switch (e.kind()) {
    case K::Add: {
      Expr s(0);
      for (const Expr& x : a) s = s + x;
      return s;
    }
    case K::Mul: {
      Expr p(1);
      for (const Expr& x : a) p = p * x;
      return p;
    }
    case K::Pow: return Expr::pow(a[0], *a[1].as_integer());
    case K::FloorDiv: return Expr::floordiv(a[0], a[1]);
    case K::Mod: return Expr::mod(a[0], a[1]);
    case K::Max: {
      Expr m = a[0];
      for (size_t i = 1; i < a.size(); ++i) m = Expr::max(m, a[i]);
      return m;
    }
    case K::Min: {
      Expr m = a[0];
      for (size_t i = 1; i < a.size(); ++i) m = Expr::min(m, a[i]);
      return m;
    }
    case K::And: return Expr::logical_and(a);
    case K::Or: return Expr::logical_or(a);
    case K::Not: return Expr::logical_not(a[0]);
    default: return is_relation(e.kind()) ? make_relation(e.kind(), a[0], a[1]) : e;
  }
}

}  // namespace

// ---- symbols ----------------------------------------------------------------

std::string ShapeEnv::new_symbol_name(const std::string& source) { return namer_.backed(source); }

// Callers test logging_ first: a guard's text can be kilobytes, and the solver
// re-solves with logging off while the user types.
void ShapeEnv::log_line(std::string line) {
  if (logging_) log_.push_back(std::move(line));
}

Expr ShapeEnv::create_backed(const std::string& source, int64_t hint, std::optional<ValueRange> range,
                             bool specialize_zero_one) {
  if (range && range->is_singleton()) {
    if (!range->contains(hint))
      throw ConstraintViolationError("Static shape constraint of " + range->lower.str() +
                                     " does not match input size of " + std::to_string(hint) + ", for " + source);
    return Expr(hint);
  }
  if (specialize_zero_one && (hint == 0 || hint == 1)) return Expr(hint);
  SymbolRecord rec;
  rec.symbol = Expr::symbol(new_symbol_name(source));
  rec.hint = hint;
  rec.range = ValueRange::at_least(specialize_zero_one ? 2 : 0);
  if (range) rec.range = rec.range.intersect(*range);
  rec.sources.push_back(source);
  rec.origin.kind = Provenance::Kind::Input;
  rec.origin.detail = source;
  if (!rec.range.contains(hint))
    throw ConstraintViolationError(std::to_string(hint) + " not in range [" + rec.range.lower.str() + ", " +
                                   rec.range.upper.str() + "]");
  const Expr sym = rec.symbol;
  if (logging_) log_line("create_symbol " + sym.str() + " = " + std::to_string(hint) + " for " + source + " " + rec.range.str());
  order_.push_back(sym.symbol_name());
  symbols_.emplace(sym.symbol_name(), std::move(rec));
  bump_version();
  return sym;
}

Expr ShapeEnv::create_phantom(const std::string& dim_name, int64_t hint, ValueRange range) {
  const Expr e = create_backed(dim_name, hint, range);
  if (e.is_symbol()) symbols_.at(e.symbol_name()).phantom = true;
  return e;
}

Expr ShapeEnv::create_unbacked(const Provenance& origin) {
  SymbolRecord rec;
  rec.symbol = Expr::symbol(namer_.unbacked());
  rec.origin = origin;
  const Expr sym = rec.symbol;
  if (logging_) log_line("create_unbacked_symint " + sym.str() + " " + rec.range.str() + " (" + origin.describe() + ")");
  order_.push_back(sym.symbol_name());
  symbols_.emplace(sym.symbol_name(), std::move(rec));
  bump_version();
  return sym;
}

void ShapeEnv::add_source(const Expr& symbol, const std::string& source) {
  auto it = symbols_.find(symbol.symbol_name());
  if (it != symbols_.end()) it->second.sources.push_back(source);
}

const SymbolRecord* ShapeEnv::find_symbol(const std::string& name) const {
  auto it = symbols_.find(name);
  return it == symbols_.end() ? nullptr : &it->second;
}

bool ShapeEnv::is_unbacked(const Expr& symbol) const {
  const SymbolRecord* r = symbol.is_symbol() ? find_symbol(symbol.symbol_name()) : nullptr;
  return r && !r->hint;
}

// ---- reasoning ----------------------------------------------------------------

Expr ShapeEnv::replace(const Expr& e) const {
  if (e.args().empty() && !e.is_symbol()) return e;
  if (replacements_.empty() && !contains_kind(e, K::Max)) return e;
  if (cache_version_ != version_) {
    replace_cache_.clear();
    bound_cache_.clear();
    cache_version_ = version_;
  }
  if (auto it = replace_cache_.find(e); it != replace_cache_.end()) return it->second;
  std::map<std::string, Expr> used;
  for (const std::string& s : e.free_symbols())
    if (auto r = replacements_.find(s); r != replacements_.end()) used.emplace(s, r->second);
  Expr out = used.empty() ? e : e.substitute(used);
  if (contains_kind(out, K::Max)) {
    const Expr substituted = out;
    const auto compute = [&] { return drop_trivial_max(substituted); };
    out = memo_ ? memo_->without_trivial_max(substituted, range_of_name(), compute) : compute();
  }
  replace_cache_.emplace(e, out);
  return out;
}

Expr ShapeEnv::drop_trivial_max(const Expr& e) const {
  // torch's simplify(): Max(1, x) -> x when x >= 1 (and Max(0, x) when x >= 0) by ranges.
  std::map<std::string, Expr> unused;
  if (e.kind() == K::Max && e.args().size() == 2) {
    Expr a = e.args()[0], b = e.args()[1];
    if (b == Expr(1) || b == Expr(0)) std::swap(a, b);
    if ((a == Expr(1) || a == Expr(0)) && compare(bound(b).lower, Num::integer(*a.as_integer())) >= 0)
      return drop_trivial_max(b);
  }
  if (e.args().empty()) return e;
  bool changed = false;
  std::vector<Expr> args;
  for (const Expr& a : e.args()) {
    args.push_back(contains_kind(a, K::Max) ? drop_trivial_max(a) : a);
    changed = changed || !(args.back() == a);
  }
  if (!changed) return e;
  return rebuild(e, args);
}

std::function<ValueRange(const std::string&)> ShapeEnv::range_of_name() const {
  return [this](const std::string& name) {
    const SymbolRecord* rec = find_symbol(name);
    return rec ? rec->range : ValueRange::unknown();
  };
}

ValueRange ShapeEnv::range_of_symbol(const Expr& symbol) const {
  const SymbolRecord* r = find_symbol(symbol.symbol_name());
  return r ? r->range : ValueRange::unknown();
}

// The same large expressions (recorded guards of windowed models: kilobytes
// of nested floordivs) are bounded again after every guard, and again in
// every re-solve, while their symbols' ranges rarely change: with a memo,
// a bound is kept with the ranges it was computed from.
ValueRange ShapeEnv::bound(const Expr& e) const {
  const auto range_of = [this](const Expr& s) { return range_of_symbol(s); };
  if (e.args().empty()) return bound_expr(e, range_of, memo_);
  if (cache_version_ != version_) {
    replace_cache_.clear();
    bound_cache_.clear();
    cache_version_ = version_;
  }
  if (auto it = bound_cache_.find(e); it != bound_cache_.end()) return it->second;
  const auto compute = [&] { return bound_expr(e, range_of, memo_); };
  const ValueRange r = memo_ ? memo_->bound(e, range_of_name(), compute) : compute();
  bound_cache_.emplace(e, r);
  return r;
}

std::optional<bool> ShapeEnv::static_truth(const Expr& condition) const {
  const Expr e = simplified_condition(condition);
  if (e.kind() == K::True) return true;
  if (e.kind() == K::False) return false;
  if (auto f = known_fact(e)) return f;
  const ValueRange r = bound(e);
  if (r.is_singleton()) return r.lower.value != 0;
  if (contains_kind(e, K::Mod)) return shifted_truth(e);
  return std::nullopt;
}

// torch's _maybe_evaluate_static reads an expression again over symbols moved
// to be exactly positive (s in [L, U] becomes t + L - 1, t in [1, U - L + 1]),
// so that sympy's own rules use the lower bounds: Mod(5, 5*s) with s >= 2 is
// 5 there, while Mod(1, 160*(s//4)) stays a Mod (s//4 may be 0). Done here for
// expressions holding a Mod, whose range alone (value_range.cpp) is as weak
// as torch's; the builder's Mod rule is sympy's.
std::optional<bool> ShapeEnv::shifted_truth(const Expr& e) const {
  std::map<std::string, Expr> moved;
  std::map<std::string, ValueRange> ranges;
  for (const std::string& name : e.free_symbols()) {
    const SymbolRecord* r = find_symbol(name);
    if (!r || r->range.lower.is_infinite()) continue;
    const int64_t offset = r->range.lower.value - 1;
    const std::string t = "evaluate_static_shape_" + std::to_string(moved.size());
    moved.emplace(name, Expr::symbol(t, {{"positive", true}, {"integer", true}}) + Expr(offset));
    const Num upper = r->range.upper.is_infinite() ? r->range.upper : Num::integer(r->range.upper.value - offset);
    ranges.emplace(t, ValueRange::between(Num::integer(1), upper));
  }
  if (moved.empty()) return std::nullopt;
  const Expr shifted = e.substitute(moved);
  if (shifted.kind() == K::True) return true;
  if (shifted.kind() == K::False) return false;
  const ValueRange b = bound_expr(shifted, [&](const Expr& s) {
    auto it = ranges.find(s.symbol_name());
    return it != ranges.end() ? it->second : range_of_symbol(s);
  });
  if (b.is_singleton()) return b.lower.value != 0;
  return std::nullopt;
}

std::optional<int64_t> ShapeEnv::static_value(const Expr& e) const {
  const Expr r = replace(e);
  if (auto v = r.as_integer()) return v;
  const ValueRange b = bound(r);
  if (b.is_singleton()) return b.lower.value;
  return std::nullopt;
}

std::optional<int64_t> ShapeEnv::hint(const Expr& e) const {
  const auto hint_of = [this](const std::string& name) -> std::optional<int64_t> {
    const SymbolRecord* r = find_symbol(name);
    return r ? r->hint : std::nullopt;
  };
  const auto compute = [&]() -> std::optional<int64_t> {
    std::map<std::string, int64_t> values;
    for (const std::string& s : e.free_symbols()) {
      const std::optional<int64_t> h = hint_of(s);
      if (!h) return std::nullopt;
      values.emplace(s, *h);
    }
    try {
      return e.evaluate(values);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  // Kilobyte-long guards are hinted again in every solve: the memo keeps them.
  if (memo_ && !e.args().empty()) return memo_->hint(e, hint_of, compute);
  return compute();
}

namespace {

/// Whether torch's safe_expand leaves `e` as it is. At any depth it rewrites
/// a product with a sum among its factors (sympy has already distributed a
/// lone number over a sum) and a sum raised to an integer power above 1.
bool expands_to_itself(const Expr& e, std::set<const ExprNode*>& stable) {
  if (e.args().empty() || stable.count(e.node())) return true;
  const auto is_sum = [](const Expr& a) { return a.kind() == K::Add; };
  if (e.kind() == K::Mul && std::any_of(e.args().begin(), e.args().end(), is_sum) &&
      !(e.args().size() == 2 && (e.args()[0].is_integer() || e.args()[1].is_integer())))
    return false;
  if (e.kind() == K::Pow && is_sum(e.args()[0])) {
    const auto exponent = e.args()[1].as_integer();
    if (exponent && *exponent > 1) return false;
  }
  for (const Expr& a : e.args())
    if (!expands_to_itself(a, stable)) return false;
  stable.insert(e.node());  // guards share subtrees: each is walked once
  return true;
}

}  // namespace

// torch's simplify() expands an expression first and then looks its
// base % divisor up among the Mods as their guards had them: a Mod that
// expansion rewrites (EfficientFormerV2's (h*w) % 2, h and w sums) is never
// found, so its division stays a FloorDiv.
bool ShapeEnv::is_divisible(const Expr& base, const Expr& divisor) const {
  if (divisible_.empty()) return false;
  const Expr mod = built(memo_, K::Mod, base, divisor);
  std::set<const ExprNode*> stable;
  return expands_to_itself(mod, stable) && divisible_.count(replace(mod)) != 0;
}

std::vector<Expr> nested_division_facts(const Expr& e) {
  std::vector<Expr> facts;
  std::set<const ExprNode*> seen;  // guards share subtrees
  const std::function<void(const Expr&)> visit = [&](const Expr& x) {
    if (!contains_kind(x, K::FloorDiv) || !seen.insert(x.node()).second) return;
    if (x.kind() == K::FloorDiv && x.args()[1].kind() == K::FloorDiv && x.args()[1].args()[0] == x.args()[0])
      facts.push_back(Expr::eq(Expr::mod(x.args()[0], x.args()[1].args()[1]), Expr(0)));
    for (const Expr& a : x.args()) visit(a);
  };
  visit(e);
  return facts;
}

Expr ShapeEnv::simplified_condition(const Expr& e) const {
  const Expr r = replace(e);
  if (divisible_.empty() || !contains_kind(r, K::FloorDiv)) return r;
  return without_exact_nested_divisions(r);
}

// torch's simplify() reads base // (base // d) as d when guards proved both
// divisions exact: a window split's inner length h // (h // 2) is the
// window, 2, once h % 2 == 0 (timm's divisibility assert) and the view's own
// h % (h // 2) == 0 are known, so the view's `2 == h // (h // 2)` is decided.
Expr ShapeEnv::without_exact_nested_divisions(const Expr& e) const {
  std::map<const ExprNode*, Expr> done;  // guards share subtrees: each is rebuilt once
  const std::function<Expr(const Expr&)> visit = [&](const Expr& x) -> Expr {
    if (!contains_kind(x, K::FloorDiv)) return x;
    if (auto it = done.find(x.node()); it != done.end()) return it->second;
    Expr out = x;
    const Expr* divisor = x.kind() == K::FloorDiv ? &x.args()[1] : nullptr;
    if (divisor && divisor->kind() == K::FloorDiv && divisor->args()[0] == x.args()[0] &&
        is_divisible(x.args()[0], *divisor) && is_divisible(divisor->args()[0], divisor->args()[1])) {
      out = divisor->args()[1];
    } else {
      bool changed = false;
      std::vector<Expr> args;
      for (const Expr& a : x.args()) {
        args.push_back(visit(a));
        changed = changed || !(args.back() == a);
      }
      if (changed) out = rebuild(x, args);
    }
    done.emplace(x.node(), out);
    return out;
  };
  return visit(e);
}

bool ShapeEnv::has_unbacked(const Expr& e) const {
  for (const std::string& s : e.free_symbols()) {
    const SymbolRecord* r = find_symbol(s);
    if (!r || !r->hint) return true;
  }
  return false;
}

// ---- facts (torch's axioms) ---------------------------------------------------

namespace {

/// torch's _reduce_to_lowest_terms (canonicalize_bool_expr): `d` (compared
/// with 0) divided by its terms' common integer factor, so that
/// `4*(h // 32) == 4` is the same relation as `h // 32 == 1`.
Expr lowest_terms(const Expr& d) {
  auto coefficient = [](const Expr& t) -> int64_t {
    std::optional<int64_t> v = t.as_integer();
    if (!v && t.kind() == K::Mul && !t.args().empty()) v = t.args()[0].as_integer();
    return v ? (*v < 0 ? -*v : *v) : 1;
  };
  auto divided = [](const Expr& t, int64_t g) {
    if (auto v = t.as_integer()) return Expr(*v / g);
    Expr out(*t.args()[0].as_integer() / g);
    for (size_t i = 1; i < t.args().size(); ++i) out = out * t.args()[i];
    return out;
  };
  if (d.kind() != K::Add && d.kind() != K::Mul) return d;
  const std::vector<Expr> terms = d.kind() == K::Add ? d.args() : std::vector<Expr>{d};
  int64_t g = 0;
  for (const Expr& t : terms) g = std::gcd(g, coefficient(t));
  if (g <= 1) return d;
  Expr out(0);
  for (const Expr& t : terms) out = out + divided(t, g);
  return out;
}

}  // namespace

Expr canonical_relation(const Expr& relation) {
  if (!is_relation(relation.kind())) return relation;
  K kind = relation.kind();
  Expr d = lowest_terms(relation.args()[0] - relation.args()[1]);
  if (kind == K::Gt || kind == K::Ge) {
    kind = kind == K::Gt ? K::Lt : K::Le;
    d = -d;
  } else if ((kind == K::Eq || kind == K::Ne) && (-d) < d) {
    d = -d;
  }
  return make_relation(kind, d, Expr(0));
}

const Expr& ShapeEnv::canonical(const Expr& relation) const {
  if (auto it = canonical_cache_.find(relation); it != canonical_cache_.end()) return it->second;
  return canonical_cache_.emplace(relation, memo_ ? memo_->canonical(relation) : canonical_relation(relation))
      .first->second;
}

namespace {

/// What knowing `fact` adds to the facts, as torch's axioms: each relation it
/// implies (Eq gives Le and Ge, Lt gives Le, Ne and Le(a, b - 1), ...) and its
/// negation's falsity, keyed by canonical form (`canonical`); a disjunction
/// is kept as itself (a repeated block's guard asked again is known, not
/// guarded twice, as torch keeps every guard among its axioms).
FactEntries fact_entries(const Expr& fact, const std::function<Expr(const Expr&)>& canonical) {
  FactEntries out;
  auto put = [&](const Expr& e, bool value) {
    Expr key = canonical(e);
    if (key.kind() != K::True && key.kind() != K::False) out.emplace_back(std::move(key), value);
  };
  auto add = [&](const Expr& e) {
    if (!is_relation(e.kind())) return;
    put(e, true);
    put(negation(e), false);
  };
  if (fact.kind() == K::And) {
    for (const Expr& a : fact.args()) {
      FactEntries more = fact_entries(a, canonical);
      out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    return out;
  }
  if (fact.kind() == K::Or) {
    out.emplace_back(fact, true);
    return out;
  }
  if (!is_relation(fact.kind())) return out;
  add(fact);
  const Expr& a = fact.args()[0];
  const Expr& b = fact.args()[1];
  switch (fact.kind()) {
    case K::Eq: add(Expr::le(a, b)); add(Expr::ge(a, b)); break;
    case K::Lt: add(Expr::le(a, b)); add(Expr::ne(a, b)); add(Expr::le(a, b - 1)); break;
    case K::Gt: add(Expr::ge(a, b)); add(Expr::ne(a, b)); add(Expr::ge(a, b + 1)); break;
    case K::Le: add(Expr::lt(a, b + 1)); break;
    case K::Ge: add(Expr::gt(a, b - 1)); break;
    default: break;
  }
  return out;
}

}  // namespace

void ShapeEnv::add_fact(const Expr& fact) {
  // Building the implied relations of kilobyte-long guards is costly and pure:
  // with a memo, each fact's entries are built once for all solves.
  const auto canonical_of = [this](const Expr& e) { return canonical(e); };
  const auto apply = [this](const FactEntries& entries) {
    for (const auto& [key, value] : entries) facts_[key] = value;
  };
  if (memo_) apply(memo_->fact_entries(fact, [&] { return fact_entries(fact, canonical_of); }));
  else apply(fact_entries(fact, canonical_of));
  // No bump_version(): the version keys replace()'s cache, which facts do not change.
}

std::optional<bool> ShapeEnv::known_fact(const Expr& condition) const {
  if (facts_.empty()) return std::nullopt;
  if (condition.kind() == K::Or) {
    auto it = facts_.find(condition);
    return it == facts_.end() ? std::nullopt : std::optional<bool>(it->second);
  }
  if (!is_relation(condition.kind())) return std::nullopt;
  auto it = facts_.find(canonical(condition));
  if (it == facts_.end()) return std::nullopt;
  return it->second;
}

// ---- guards ---------------------------------------------------------------------

void ShapeEnv::data_dependent(const Expr& expr, const Provenance& origin) const {
  std::map<std::string, Expr> hinted;
  for (const std::string& s : expr.free_symbols())
    if (const SymbolRecord* r = find_symbol(s); r && r->hint) hinted.emplace(s, Expr(*r->hint));
  const std::string text = expr.substitute(hinted).str();
  throw DataDependentError(expr, origin,
                           "Could not guard on data-dependent expression " + text + " (unhinted: " + expr.str() +
                               ").  (Size-like symbols: none)\n\n"
                               "consider using data-dependent friendly APIs such as guard_or_false, guard_or_true "
                               "and statically_known_true.\nCaused by: " +
                               origin.describe());
}

bool ShapeEnv::decide(const Expr& condition, const Provenance& origin, std::optional<bool> fallback) {
  if (condition.kind() == K::True) return true;
  if (condition.kind() == K::False) return false;
  if (auto s = static_truth(condition)) return *s;
  const Expr e = replace(condition);
  if (has_unbacked(e)) {
    if (fallback) return *fallback;
    data_dependent(e, origin);
  }
  const auto h = hint(e);
  if (!h) data_dependent(e, origin);
  const bool value = *h != 0;
  record_guard(value ? condition : negation(condition), origin);
  return value;
}

void ShapeEnv::record_guard(const Expr& guard, const Provenance& origin) {
  if (logging_) log_line("eval " + guard.str() + " [guard added] " + origin.describe());
  maybe_guard_relation(guard, origin);
  guards_.push_back({guard, origin});
  add_fact(replace(guard));
}

bool ShapeEnv::evaluate(const Expr& condition, const Provenance& origin) {
  return decide(condition, origin, std::nullopt);
}

bool ShapeEnv::guard_or_false(const Expr& condition, const Provenance& origin) {
  return decide(condition, origin, false);
}

bool ShapeEnv::guard_or_true(const Expr& condition, const Provenance& origin) {
  return decide(condition, origin, true);
}

void ShapeEnv::check(const Expr& condition, const Provenance& origin, const CheckMessage& message) {
  auto fail = [&]() {
    const std::string text = message.str();
    throw CheckFailedError(condition, origin,
                           (text.empty() ? "check failed: " + condition.str() : text) + " (" + origin.describe() + ")");
  };
  if (auto s = static_truth(condition)) {
    if (!*s) fail();
    return;
  }
  const Expr e = replace(condition);
  if (has_unbacked(e)) {
    if (logging_) log_line("runtime_assert " + e.str() + " [guard added] " + origin.describe());
    maybe_guard_relation(e, origin);
    runtime_asserts_.push_back({e, origin});
    add_fact(e);
    return;
  }
  if (!evaluate(condition, origin)) fail();
}

int64_t ShapeEnv::specialize(const Expr& e, const Provenance& origin) {
  if (auto v = static_value(e)) return *v;
  const Expr r = replace(e);
  const auto h = hint(r);
  if (!h) {
    throw DataDependentError(r, origin,
                             "Could not extract specialized integer from data-dependent expression " + r.str() +
                                 " (unhinted: " + r.str() + ").  (Size-like symbols: none)\nCaused by: " +
                                 origin.describe());
  }
  record_guard(Expr::eq(e, Expr(*h)), origin);
  return *h;
}

void ShapeEnv::constrain_range(const Expr& symbol, ValueRange range, const Provenance& origin) {
  if (!symbol.is_symbol()) return;
  if (logging_) log_line("constrain_symbol_range " + symbol.str() + " " + range.str() + " " + origin.describe());
  update_range(symbol, range, origin);
}

// ---- torch's _maybe_guard_rel and friends ----------------------------------

void ShapeEnv::maybe_guard_relation(const Expr& guard, const Provenance& origin) {
  const Expr g = replace(guard);
  if (g.kind() == K::And) {
    for (const Expr& a : g.args()) maybe_guard_relation(a, origin);
    return;
  }
  if (!is_relation(g.kind()) || g.kind() == K::Ne) return;
  std::vector<std::string> names = g.free_symbols();
  if (names.empty() || names.size() > 5) return;
  // torch solves for the symbol with the largest hint (unbacked last), then
  // the lexicographically highest name.
  std::vector<std::pair<int64_t, std::string>> keyed;
  for (const std::string& n : names) {
    const SymbolRecord* r = find_symbol(n);
    keyed.emplace_back(r && r->hint ? *r->hint : INT64_MAX, n);
  }
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  refine_ranges(g, origin);
  if (g.kind() != K::Eq) return;
  const Expr lhs = g.args()[0], rhs = g.args()[1];
  if (!contains_kind(g, K::Mod)) {
    const auto by_other_than_one = [](const Expr& d) { return !(d.args()[1] == Expr(1)); };
    if (first_of(g, K::FloorDiv, by_other_than_one)) return;  // torch: NotImplementedError, no replacement
    auto trivial = [this](const Expr& a, const Expr& b) {
      return a.is_symbol() && is_unbacked(a) && !has_unbacked(b);
    };
    if (trivial(lhs, rhs)) {
      set_replacement(lhs, replace(rhs), "trivial_lhs", origin);
    } else if (trivial(rhs, lhs)) {
      set_replacement(rhs, replace(lhs), "trivial_rhs", origin);
    } else {
      const Expr target = Expr::symbol(keyed.front().second);
      const auto r = isolated(memo_, g, target, false);
      if (r && r->integral() && !has_unbacked(r->rhs)) set_replacement(target, replace(r->rhs), "solve", origin);
    }
  } else {
    const Expr mod = *first_of(g, K::Mod, [](const Expr&) { return true; });
    const auto r = isolated(memo_, g, mod, false);
    if (r && r->integral() && r->rhs == Expr(0)) {
      divisible_.insert(mod);
    }
  }
}

void ShapeEnv::refine_ranges(const Expr& relation, const Provenance& origin) {
  const Expr e = replace(relation);
  if (!is_relation(e.kind())) return;
  const std::vector<std::string> names = e.free_symbols();
  const PositiveSymbol backed = [this](const std::string& n) {
    const SymbolRecord* rec = find_symbol(n);
    return rec && rec->hint.has_value();
  };
  for (const std::string& name : names) {
    auto it = symbols_.find(name);
    if (it == symbols_.end()) continue;
    const Expr s = it->second.symbol;
    // Pure in the relation, the symbol and which symbols are backed: a memo keeps it across solves.
    const auto r = isolated(memo_, e, s, true, names, backed);
    if (!r || !r->integral()) continue;
    const ValueRange vr = it->second.range;
    Num lower = vr.lower, upper = vr.upper;
    const ValueRange rhs = bound(r->rhs);
    const K k = r->relation;
    if (compare(lower, rhs.lower) <= 0 && (k == K::Eq || k == K::Ge || k == K::Gt))
      lower = k == K::Gt && !rhs.lower.is_infinite() ? Num::integer(rhs.lower.value + 1) : rhs.lower;
    if (compare(upper, rhs.upper) >= 0 && (k == K::Eq || k == K::Le || k == K::Lt))
      upper = k == K::Lt && !rhs.upper.is_infinite() ? Num::integer(rhs.upper.value - 1) : rhs.upper;
    if (ValueRange::between(lower, upper) == vr) continue;
    update_range(s, ValueRange::between(lower, upper), origin);
    const ValueRange now = symbols_.at(name).range;
    if (now.is_singleton()) set_replacement(s, Expr(now.lower.value), "range_refined_to_singleton", origin);
  }
}

void ShapeEnv::update_range(const Expr& symbol, const ValueRange& range, const Provenance& origin) {
  auto it = symbols_.find(symbol.symbol_name());
  if (it == symbols_.end()) return;
  const ValueRange old = it->second.range;
  const ValueRange now = old.intersect(range);
  if (now == old) return;
  it->second.range = now;
  if (!(now.lower == old.lower)) it->second.lower_origin = origin;
  if (!(now.upper == old.upper)) it->second.upper_origin = origin;
  if (logging_) log_line("_update_var_to_range " + symbol.str() + " = " + now.str() + " (update)");
  bump_version();
}

void ShapeEnv::set_replacement(const Expr& a, const Expr& target, const std::string& reason,
                               const Provenance& origin) {
  const std::string& name = a.symbol_name();
  if (auto it = replacements_.find(name); it != replacements_.end() && it->second == target) return;
  if (contains_symbol(target, a)) return;
  ValueRange target_bound = bound(target);
  if (auto it = symbols_.find(name); it != symbols_.end()) {
    const ValueRange source_bound = it->second.range;
    update_range(a, target_bound, origin);
    const auto free = target.free_symbols();
    if (!target_bound.is_subset_of(source_bound) && free.size() == 1) {
      // Propagate a's range to the single symbol of the target.
      const Expr b = Expr::symbol(free.front());
      if (const auto r = isolate(Expr::eq(a, target), b, false)) {
        const ValueRange num = bound(r->rhs);
        const int64_t d = r->denominator;
        const Num lo = num.lower.is_infinite() ? num.lower : Num::integer(ceil_div(num.lower.value, d));
        const Num hi = num.upper.is_infinite() ? num.upper : Num::integer(floor_div_exact(num.upper.value, d));
        update_range(b, ValueRange::between(lo, hi), origin);
        target_bound = bound(target);
      }
    }
    if (!target_bound.is_subset_of(source_bound)) {
      if (logging_) log_line("skipped set_replacement " + a.str() + " = " + target.str() + " (" + reason + ") [" +
               target_bound.str() + " not subset of " + source_bound.str() + "]");
      return;
    }
  }
  if (logging_) log_line("set_replacement " + a.str() + " = " + target.str() + " (" + reason + ") " + target_bound.str());
  const std::map<std::string, Expr> one{{name, target}};
  for (auto& [other, t] : replacements_)
    if (contains_symbol(t, a)) t = t.substitute(one);
  replacements_[name] = target;
  replacement_log_.push_back({a, target, reason, origin});
  bump_version();
}

}  // namespace exportlens::symbolic

// The public Expr API: thin wrappers over the canonicalizing constructors
// (expr_node.h), the printers (printer.h) and the parsers (parsers.h), plus
// substitution and evaluation.
#include "engine/symbolic/expr.h"

#include <functional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/parsers.h"
#include "engine/symbolic/printer.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

using Leaf = std::function<std::optional<Expr>(const Expr&)>;
/// Subtrees already rebuilt, by node: a kilobyte-long guard repeats its
/// subtrees, and each is rebuilt once (from this many nodes; small ones are
/// cheaper to redo).
using Rebuilt = std::unordered_map<const ExprNode*, Expr>;
constexpr int64_t kRebuiltKeptFrom = 16;

Expr rebuild_node(const Expr& e, const Leaf& leaf, Rebuilt& kept);

/// Rebuild `e` bottom-up through the canonical constructors, replacing
/// symbols via `leaf` (which returns nullopt to keep a symbol).
Expr rebuild(const Expr& e, const Leaf& leaf, Rebuilt& kept) {
  if (N(e).node_count < kRebuiltKeptFrom) return rebuild_node(e, leaf, kept);
  if (auto it = kept.find(e.node()); it != kept.end()) return it->second;
  Expr r = rebuild_node(e, leaf, kept);
  kept.emplace(e.node(), r);
  return r;
}

Expr rebuild(const Expr& e, const Leaf& leaf) {
  Rebuilt kept;
  return rebuild(e, leaf, kept);
}

Expr rebuild_node(const Expr& e, const Leaf& leaf, Rebuilt& kept) {
  if (e.kind() == K::Symbol) return leaf(e).value_or(e);
  if (e.args().empty()) return e;
  std::vector<Expr> args;
  bool changed = false;
  for (const Expr& a : e.args()) {
    args.push_back(rebuild(a, leaf, kept));
    changed = changed || !(args.back().node() == a.node());
  }
  if (!changed) return e;
  const Flavor flavor = N(e).flavor;
  switch (e.kind()) {
    case K::Add: return ExprBuilder::add(std::move(args));
    case K::Mul: return ExprBuilder::mul(std::move(args));
    case K::Pow: return ExprBuilder::pow(args[0], *args[1].as_integer());
    case K::FloorDiv: return ExprBuilder::floordiv(args[0], args[1], flavor);
    case K::Mod: return ExprBuilder::mod(args[0], args[1], flavor);
    case K::Max:
    case K::Min: return ExprBuilder::min_max(e.kind(), std::move(args));
    case K::And:
    case K::Or: return ExprBuilder::logic(e.kind(), std::move(args));
    case K::Not: return ExprBuilder::logical_not(args[0]);
    default: return ExprBuilder::relation(e.kind(), args[0], args[1]);
  }
}

[[noreturn]] void overflow(const char* op) {
  throw std::overflow_error(std::string("integer overflow evaluating ") + op);
}

/// Evaluates one expression. Kilobyte-long guards repeat their subtrees
/// (the same node under many parents), so a large subtree's value is kept by
/// node and each is evaluated once; small ones are cheaper to redo.
struct Evaluator {
  const std::map<std::string, int64_t>& values;
  std::unordered_map<const ExprNode*, std::optional<int64_t>> kept;

  static constexpr int64_t kKeptFrom = 16;  // node_count from which a value is kept

  std::optional<int64_t> operator()(const Expr& e) {
    if (N(e).node_count < kKeptFrom) return evaluate(e);
    if (auto it = kept.find(e.node()); it != kept.end()) return it->second;
    std::optional<int64_t> r = evaluate(e);
    kept.emplace(e.node(), r);
    return r;
  }

  std::optional<int64_t> evaluate(const Expr& e);
};

std::optional<int64_t> Evaluator::evaluate(const Expr& e) {
  if (N(e).kind == K::Symbol) {
    auto it = values.find(e.symbol_name());
    if (it == values.end()) return std::nullopt;
    return it->second;
  }
  const size_t n = N(e).args.size();
  int64_t small[8];
  std::vector<int64_t> large;
  int64_t* v = small;
  if (n > 8) {
    large.resize(n);
    v = large.data();
  }
  for (size_t i = 0; i < n; ++i) {
    auto x = (*this)(N(e).args[i]);
    if (!x) return std::nullopt;
    v[i] = *x;
  }
  int64_t* const end = v + n;
  int64_t r = 0;
  switch (N(e).kind) {
    case K::Integer: return *e.as_integer();
    case K::Infinity: throw std::domain_error("cannot evaluate " + e.str() + " to an integer");
    case K::True: return 1;
    case K::False: return 0;
    case K::Add:
      for (const int64_t* x = v; x != end; ++x)
        if (__builtin_add_overflow(r, *x, &r)) overflow("+");
      return r;
    case K::Mul:
      r = 1;
      for (const int64_t* x = v; x != end; ++x)
        if (__builtin_mul_overflow(r, *x, &r)) overflow("*");
      return r;
    case K::Pow: return checked_pow(v[0], v[1]);
    case K::FloorDiv: return floor_div(v[0], v[1]);
    case K::Mod: return python_mod(v[0], v[1]);
    case K::Max: return *std::max_element(v, end);
    case K::Min: return *std::min_element(v, end);
    case K::Eq: return v[0] == v[1];
    case K::Ne: return v[0] != v[1];
    case K::Lt: return v[0] < v[1];
    case K::Le: return v[0] <= v[1];
    case K::Gt: return v[0] > v[1];
    case K::Ge: return v[0] >= v[1];
    case K::And: return std::all_of(v, end, [](int64_t x) { return x != 0; });
    case K::Or: return std::any_of(v, end, [](int64_t x) { return x != 0; });
    case K::Not: return v[0] == 0;
    case K::Symbol: break;
  }
  return std::nullopt;
}

}  // namespace

Expr::Expr() : Expr(int64_t{0}) {}
Expr::Expr(int64_t value) : node_(ExprBuilder::number(Num::integer(value)).node_) {}

Expr Expr::integer(int64_t value) { return Expr(value); }
Expr Expr::symbol(std::string name) {
  Assumptions assumptions = ExprBuilder::default_assumptions(name);
  return ExprBuilder::symbol(std::move(name), std::move(assumptions));
}
Expr Expr::symbol(std::string name, std::vector<std::pair<std::string, bool>> assumptions) {
  return ExprBuilder::symbol(std::move(name), std::move(assumptions));
}
Expr Expr::infinity(bool negative) { return ExprBuilder::number(Num::infinite(negative ? -1 : 1)); }
Expr Expr::boolean(bool value) { return ExprBuilder::boolean(value); }
Expr Expr::floordiv(Expr a, Expr b) { return ExprBuilder::floordiv(a, b); }
Expr Expr::mod(Expr a, Expr b) { return ExprBuilder::torch_mod(a, b); }
Expr Expr::max(Expr a, Expr b) { return ExprBuilder::min_max(Kind::Max, {a, b}); }
Expr Expr::min(Expr a, Expr b) { return ExprBuilder::min_max(Kind::Min, {a, b}); }
Expr Expr::pow(Expr base, int64_t exponent) { return ExprBuilder::pow(base, exponent); }
Expr Expr::eq(Expr a, Expr b) { return ExprBuilder::relation(Kind::Eq, a, b); }
Expr Expr::ne(Expr a, Expr b) { return ExprBuilder::relation(Kind::Ne, a, b); }
Expr Expr::lt(Expr a, Expr b) { return ExprBuilder::relation(Kind::Lt, a, b); }
Expr Expr::le(Expr a, Expr b) { return ExprBuilder::relation(Kind::Le, a, b); }
Expr Expr::gt(Expr a, Expr b) { return ExprBuilder::relation(Kind::Gt, a, b); }
Expr Expr::ge(Expr a, Expr b) { return ExprBuilder::relation(Kind::Ge, a, b); }
Expr Expr::logical_and(std::vector<Expr> terms) { return ExprBuilder::logic(Kind::And, std::move(terms)); }
Expr Expr::logical_or(std::vector<Expr> terms) { return ExprBuilder::logic(Kind::Or, std::move(terms)); }
Expr Expr::logical_not(Expr a) { return ExprBuilder::logical_not(a); }

Expr::Kind Expr::kind() const { return node_->kind; }

bool Expr::is_boolean() const {
  switch (kind()) {
    case Kind::True:
    case Kind::False:
    case Kind::Eq:
    case Kind::Ne:
    case Kind::Lt:
    case Kind::Le:
    case Kind::Gt:
    case Kind::Ge:
    case Kind::And:
    case Kind::Or:
    case Kind::Not: return true;
    default: return false;
  }
}

std::optional<int64_t> Expr::as_integer() const {
  if (kind() != Kind::Integer) return std::nullopt;
  return node_->number.value;
}

const std::string& Expr::symbol_name() const {
  if (kind() != Kind::Symbol) throw std::logic_error("symbol_name() of a non-symbol: " + str());
  return node_->name;
}

const std::vector<Expr>& Expr::args() const { return node_->args; }

std::vector<std::string> Expr::free_symbols() const {
  if (!node_->symbols) return {};
  return *node_->symbols;
}

Expr Expr::substitute(const std::map<std::string, Expr>& replacements) const {
  return rebuild(*this, [&](const Expr& s) -> std::optional<Expr> {
    auto it = replacements.find(s.symbol_name());
    if (it == replacements.end()) return std::nullopt;
    return it->second;
  });
}

std::optional<int64_t> Expr::evaluate(const std::map<std::string, int64_t>& values) const {
  return Evaluator{values, {}}(*this);
}

std::string Expr::str() const { return to_str(*this); }
std::string Expr::srepr() const { return to_srepr(*this); }
Expr Expr::parse_srepr(std::string_view text) { return parse_srepr_text(text); }
Expr Expr::parse(std::string_view text) { return parse_str_text(text); }

Expr operator+(const Expr& a, const Expr& b) { return ExprBuilder::add({a, b}); }
Expr operator-(const Expr& a, const Expr& b) { return ExprBuilder::add({a, -b}); }
Expr operator*(const Expr& a, const Expr& b) { return ExprBuilder::mul({a, b}); }
Expr operator-(const Expr& a) { return multiply_by(Num::integer(-1), a); }

bool operator==(const Expr& a, const Expr& b) {
  if (a.node() == b.node()) return true;
  if (a.hash() != b.hash()) return false;
  return structural_compare(a, b) == 0;
}

bool operator<(const Expr& a, const Expr& b) { return sort_key_less(a, b); }

size_t Expr::hash() const { return node_->hash; }

}  // namespace exportlens::symbolic

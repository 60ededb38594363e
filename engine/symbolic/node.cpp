// Leaves, raw node assembly and the structural helpers the canonicalization
// files share.
#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using SymbolList = std::shared_ptr<const std::vector<std::string>>;

/// The sorted union of the args' symbol lists, sharing one of them when it
/// already holds all the others' names (the usual case).
SymbolList union_of_symbols(const std::vector<Expr>& args) {
  SymbolList widest;
  for (const Expr& a : args) {
    const SymbolList& s = N(a).symbols;
    if (s && (!widest || s->size() > widest->size())) widest = s;
  }
  if (!widest) return nullptr;
  bool covered = true;
  for (const Expr& a : args) {
    const SymbolList& s = N(a).symbols;
    if (!s || s == widest) continue;
    if (!std::includes(widest->begin(), widest->end(), s->begin(), s->end())) {
      covered = false;
      break;
    }
  }
  if (covered) return widest;
  std::vector<std::string> merged;
  for (const Expr& a : args) {
    const SymbolList& s = N(a).symbols;
    if (!s) continue;
    std::vector<std::string> next;
    next.reserve(merged.size() + s->size());
    std::set_union(merged.begin(), merged.end(), s->begin(), s->end(), std::back_inserter(next));
    merged = std::move(next);
  }
  return std::make_shared<const std::vector<std::string>>(std::move(merged));
}

size_t mix(size_t seed, size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

size_t structural_hash(const ExprNode& n) {
  size_t h = mix(static_cast<size_t>(n.kind), static_cast<size_t>(n.flavor));
  h = mix(h, std::hash<int64_t>{}(n.number.value));
  h = mix(h, static_cast<size_t>(n.number.infinity + 2));
  h = mix(h, std::hash<std::string>{}(n.name));
  for (const Expr& a : n.args) h = mix(h, a.hash());
  return h;
}

}  // namespace

static_assert(unsigned(Expr::Kind::Not) < 32, "ExprNode::kinds holds one bit per Kind");

Expr ExprBuilder::finish(std::shared_ptr<ExprNode> node) {
  node->hash = structural_hash(*node);
  node->node_count = 1;
  node->kinds = 1u << unsigned(node->kind);
  for (const Expr& a : node->args) {
    node->node_count += N(a).node_count;
    node->kinds |= N(a).kinds;
  }
  node->symbols = node->kind == Expr::Kind::Symbol
                      ? std::make_shared<const std::vector<std::string>>(1, node->name)
                      : union_of_symbols(node->args);
  Expr e{std::shared_ptr<const ExprNode>(node)};
  // Key and facts read only the args' (already final) data and the node's
  // own fields, so filling them in after wrapping is safe.
  node->sort_key = compute_sort_key(e);
  node->facts = compute_facts(e);
  return e;
}

Expr ExprBuilder::raw(Expr::Kind kind, std::vector<Expr> args, Flavor flavor) {
  auto node = std::make_shared<ExprNode>();
  node->kind = kind;
  node->flavor = flavor;
  node->args = std::move(args);
  return finish(std::move(node));
}

namespace {

Expr make_number(const Num& n) {
  auto node = std::make_shared<ExprNode>();
  node->kind = n.is_infinite() ? Expr::Kind::Infinity : Expr::Kind::Integer;
  node->number = n;
  return ExprBuilder::finish(std::move(node));
}

}  // namespace

Expr ExprBuilder::number(Num n) {
  // Small integers are asked for everywhere (the 1 and 0 of every size check):
  // one immutable node each, made once, instead of a node per use.
  constexpr int64_t kLeast = -128, kMost = 1024;
  static const std::vector<Expr> small = [] {
    std::vector<Expr> v;
    v.reserve(size_t(kMost - kLeast + 1));
    for (int64_t i = kLeast; i <= kMost; ++i) v.push_back(make_number(Num::integer(i)));
    return v;
  }();
  if (!n.is_infinite() && n.value >= kLeast && n.value <= kMost) return small[size_t(n.value - kLeast)];
  return make_number(n);
}

Assumptions ExprBuilder::default_assumptions(const std::string& name) {
  // torch: size symbols s<N> are made positive integers, unbacked ones
  // (u<N>) and everything else plain integers.
  if (name.size() > 1 && name[0] == 's' && std::isdigit(static_cast<unsigned char>(name[1])))
    return {{"positive", true}, {"integer", true}};
  return {{"integer", true}};
}

Expr ExprBuilder::symbol(std::string name, Assumptions assumptions) {
  auto node = std::make_shared<ExprNode>();
  node->kind = Expr::Kind::Symbol;
  node->name = std::move(name);
  node->assumptions = std::move(assumptions);
  return finish(std::move(node));
}

Expr ExprBuilder::boolean(bool value) {
  return raw(value ? Expr::Kind::True : Expr::Kind::False, {});
}

std::pair<Num, Expr> split_coefficient(const Expr& term) {
  if (is_number(term)) return {num(term), Expr(1)};
  if (term.kind() == Expr::Kind::Mul && is_number(term.args().front())) {
    const auto& args = term.args();
    if (args.size() == 2) return {num(args[0]), args[1]};
    return {num(args[0]),
            ExprBuilder::raw(Expr::Kind::Mul, std::vector<Expr>(args.begin() + 1, args.end()))};
  }
  return {Num::integer(1), term};
}

std::vector<Expr> factors_of(const Expr& body) {
  if (body.kind() == Expr::Kind::Mul) {
    std::vector<Expr> out;
    for (const Expr& a : body.args())
      if (!is_number(a)) out.push_back(a);
    return out;
  }
  if (body.is_integer() && *body.as_integer() == 1) return {};
  return {body};
}

std::vector<Expr> terms_of(const Expr& e) {
  if (e.kind() == Expr::Kind::Add) return e.args();
  return {e};
}

std::pair<Expr, int64_t> split_power(const Expr& factor) {
  if (factor.kind() == Expr::Kind::Pow) return {factor.args()[0], *factor.args()[1].as_integer()};
  return {factor, 1};
}

Expr multiply_by(const Num& c, const Expr& e) {
  return ExprBuilder::mul({ExprBuilder::number(c), e});
}

}  // namespace exportlens::symbolic

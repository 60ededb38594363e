// sympy's Basic.sort_key / Expr.sort_key / Number.sort_key / Symbol.sort_key
// for our node kinds (sympy/core/basic.py, expr.py, numbers.py, symbol.py).
#include "engine/symbolic/sort_key.h"

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/printer.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

SortKeyPtr number_leaf(Num n) {
  auto k = std::make_shared<SortKey>();
  k->type = SortKey::Type::Number;
  k->number = n;
  return k;
}
SortKeyPtr int_leaf(int64_t v) { return number_leaf(Num::integer(v)); }
SortKeyPtr string_leaf(std::string s) {
  auto k = std::make_shared<SortKey>();
  k->type = SortKey::Type::String;
  k->text = std::move(s);
  return k;
}
SortKeyPtr tuple(std::vector<SortKeyPtr> items) {
  auto k = std::make_shared<SortKey>();
  k->items = std::move(items);
  return k;
}

/// sympy class_key(): (1, 0, 'Number'), (2, 0, 'Symbol'), (3, 0, 'Mul'),
/// (3, 1, 'Add'), (3, 2, 'Pow'), (4, 10000, <Function>), (5, 0, <Basic>),
/// each named by its class (printer.h).
SortKeyPtr make_class_key(K kind, Flavor flavor) {
  const auto key = [&](int64_t rank, int64_t order) {
    const bool number = kind == K::Integer || kind == K::Infinity;
    return tuple({int_leaf(rank), int_leaf(order), string_leaf(number ? "Number" : sympy_class_name(kind, flavor))});
  };
  switch (kind) {
    case K::Integer:
    case K::Infinity: return key(1, 0);
    case K::Symbol: return key(2, 0);
    case K::Mul: return key(3, 0);
    case K::Add: return key(3, 1);
    case K::Pow: return key(3, 2);
    case K::FloorDiv:
    case K::Mod: return key(4, 10000);
    case K::Max:
    case K::Min:
    case K::True:
    case K::False:
    case K::Eq:
    case K::Ne:
    case K::Lt:
    case K::Le:
    case K::Gt:
    case K::Ge:
    case K::And:
    case K::Or:
    case K::Not: return key(5, 0);
  }
  return tuple({});
}

/// Class keys are constants: made once, shared by every key (so comparing
/// two keys of one class is a pointer check, see compare()).
const SortKeyPtr& class_key(K kind, Flavor flavor) {
  constexpr size_t kinds = size_t(K::Not) + 1, flavors = size_t(Flavor::PythonMod) + 1;
  static const std::vector<SortKeyPtr> keys = [] {
    std::vector<SortKeyPtr> all(kinds * flavors);
    for (size_t k = 0; k < kinds; ++k)
      for (size_t f = 0; f < flavors; ++f) all[k * flavors + f] = make_class_key(K(k), Flavor(f));
    return all;
  }();
  return keys[size_t(kind) * flavors + size_t(flavor)];
}

const SortKeyPtr& empty_tuple() {
  static const SortKeyPtr key = tuple({});
  return key;
}

SortKeyPtr number_key(Num n) {
  // Number.sort_key: (class_key, (0, ()), (), self); all but the value are constants.
  static const SortKeyPtr no_args = tuple({int_leaf(0), empty_tuple()});
  return tuple({class_key(K::Integer, Flavor::Plain), no_args, empty_tuple(), number_leaf(n)});
}

const SortKeyPtr& one_key() {
  static const SortKeyPtr key = number_key(Num::integer(1));
  return key;
}

SortKeyPtr args_key(const std::vector<Expr>& args) {
  std::vector<SortKeyPtr> keys;
  for (const Expr& a : args) keys.push_back(N(a).sort_key);
  return tuple({int_leaf(static_cast<int64_t>(keys.size())), tuple(std::move(keys))});
}

/// Basic.sort_key: (class_key, (len(args), args' keys), One's key, 1).
SortKeyPtr basic_key(const Expr& e) {
  return tuple({class_key(e.kind(), N(e).flavor), args_key(e.args()), one_key(), int_leaf(1)});
}

/// Expr.sort_key: strips a numeric coefficient and a power, then keys the rest.
SortKeyPtr expr_key(const Expr& e) {
  Num coefficient = Num::integer(1);
  std::vector<Expr> factors{e};
  if (e.kind() == K::Mul) {
    factors.clear();
    for (const Expr& a : e.args()) {
      if (is_number(a))
        coefficient = num(a);
      else
        factors.push_back(a);
    }
  }
  if (factors.size() > 1)  // the coefficient-free rest is itself a Mul
    return tuple({class_key(K::Mul, Flavor::Plain), args_key(factors), one_key(),
                  number_leaf(coefficient)});
  Expr body = factors.front();
  SortKeyPtr exponent_key = one_key();
  if (body.kind() == K::Pow) {
    exponent_key = N(body.args()[1]).sort_key;
    body = body.args()[0];
  }
  SortKeyPtr body_args;
  if (body.kind() == K::Symbol)
    body_args = tuple({int_leaf(1), tuple({string_leaf(body.symbol_name())})});
  else if (is_number(body))
    body_args = tuple({int_leaf(1), tuple({string_leaf(num(body).str())})});
  else
    body_args = args_key(body.args());
  return tuple({class_key(body.kind(), N(body).flavor), body_args, exponent_key,
                number_leaf(coefficient)});
}

int compare_numbers(const Num& a, const Num& b) { return symbolic::compare(a, b); }

}  // namespace

int structural_compare(const Expr& a, const Expr& b) {
  if (a.node() == b.node()) return 0;
  const ExprNode& x = N(a);
  const ExprNode& y = N(b);
  if (x.kind != y.kind) return x.kind < y.kind ? -1 : 1;
  if (x.flavor != y.flavor) return x.flavor < y.flavor ? -1 : 1;
  if (int c = compare_numbers(x.number, y.number)) return c;
  if (int c = x.name.compare(y.name)) return c < 0 ? -1 : 1;
  for (size_t i = 0; i < x.args.size() && i < y.args.size(); ++i)
    if (int c = structural_compare(x.args[i], y.args[i])) return c;
  if (x.args.size() != y.args.size()) return x.args.size() < y.args.size() ? -1 : 1;
  return 0;
}

int compare(const SortKey& a, const SortKey& b) {
  if (&a == &b) return 0;  // shared subkeys: class keys, the args' own keys
  if (a.type != b.type) return a.type < b.type ? -1 : 1;  // never mixed in practice
  switch (a.type) {
    case SortKey::Type::Number: return compare_numbers(a.number, b.number);
    case SortKey::Type::String: {
      const int c = a.text.compare(b.text);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case SortKey::Type::Tuple:
      for (size_t i = 0; i < a.items.size() && i < b.items.size(); ++i)
        if (int c = compare(*a.items[i], *b.items[i])) return c;
      if (a.items.size() != b.items.size()) return a.items.size() < b.items.size() ? -1 : 1;
      return 0;
  }
  return 0;
}

SortKeyPtr compute_sort_key(const Expr& e) {
  switch (e.kind()) {
    case K::Integer:
    case K::Infinity: return number_key(num(e));
    case K::Symbol:
      return tuple({class_key(K::Symbol, Flavor::Plain),
                    tuple({int_leaf(1), tuple({string_leaf(e.symbol_name())})}), one_key(),
                    int_leaf(1)});
    case K::Add:
    case K::Mul:
    case K::Pow:
    case K::FloorDiv:
    case K::Mod:
    case K::Max:
    case K::Min: return expr_key(e);
    default: return basic_key(e);
  }
}

bool sort_key_less(const Expr& a, const Expr& b) {
  if (int c = compare(*N(a).sort_key, *N(b).sort_key)) return c < 0;
  return structural_compare(a, b) < 0;
}

bool ordered_less(const Expr& a, const Expr& b) {
  if (N(a).node_count != N(b).node_count) return N(a).node_count < N(b).node_count;
  return sort_key_less(a, b);
}

}  // namespace exportlens::symbolic

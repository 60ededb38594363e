#include "engine/symbolic/solve_memo.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "engine/symbolic/shape_env.h"

namespace exportlens::symbolic {

namespace {

// Bounds per table: a few re-solves of a large windowed model keep some
// thousands of entries; a table past its bound is emptied, not evicted.
constexpr size_t relations_kept = size_t(1) << 16;
constexpr size_t solutions_kept = size_t(1) << 14;
constexpr size_t bindings_kept = 4;  // a spec and its edit, or a few specs the user switches between

template <typename Map>
void bound_size(Map& m, size_t most) {
  if (m.size() > most) m.clear();
}

}  // namespace

Expr SolveMemo::canonical(const Expr& relation) {
  if (auto it = canonical_.find(relation); it != canonical_.end()) return it->second;
  bound_size(canonical_, relations_kept);
  return canonical_.emplace(relation, canonical_relation(relation)).first->second;
}

Expr SolveMemo::difference(const Expr& relation) {
  if (auto it = difference_.find(relation); it != difference_.end()) return it->second;
  bound_size(difference_, relations_kept);
  return difference_.emplace(relation, relation.args()[0] - relation.args()[1]).first->second;
}

const FactEntries& SolveMemo::fact_entries(const Expr& fact, const std::function<FactEntries()>& compute) {
  if (auto it = facts_.find(fact); it != facts_.end()) return it->second;
  FactEntries entries = compute();
  bound_size(facts_, relations_kept);
  return facts_.emplace(fact, std::move(entries)).first->second;
}

std::optional<Isolated> SolveMemo::isolated(const Expr& relation, const Expr& target, bool floordiv_inequality,
                                             const std::vector<std::string>& names, const PositiveSymbol& backed) {
  IsolateKey key{relation, target, floordiv_inequality, {}};
  if (backed) {
    key.backed.reserve(names.size());
    for (const std::string& n : names) key.backed.push_back(backed(n));
  }
  if (auto it = isolated_.find(key); it != isolated_.end()) return it->second;
  bound_size(isolated_, solutions_kept);
  auto r = isolate(relation, target, floordiv_inequality, backed);
  isolated_.emplace(std::move(key), r);
  return r;
}

std::optional<Isolated> isolated(SolveMemo* memo, const Expr& relation, const Expr& target, bool floordiv_inequality,
                                 const std::vector<std::string>& names, const PositiveSymbol& backed) {
  return memo ? memo->isolated(relation, target, floordiv_inequality, names, backed)
              : isolate(relation, target, floordiv_inequality, backed);
}

template <typename Binding, typename T>
T SolveMemo::by_binding(ByBindingTable<Binding, T>& table, size_t most, const Expr& e,
                        const std::function<Binding(const std::string&)>& binding_of,
                        const std::function<T(const std::vector<std::string>&, const std::vector<Binding>&)>& compute) {
  auto it = table.find(e);
  if (it == table.end()) {
    bound_size(table, most);
    it = table.emplace(e, ByBinding<Binding, T>{e.free_symbols(), {}}).first;
  }
  ByBinding<Binding, T>& entry = it->second;
  std::vector<Binding> bindings;
  bindings.reserve(entry.symbols.size());
  for (const std::string& name : entry.symbols) bindings.push_back(binding_of(name));
  for (const auto& [kept_bindings, value] : entry.kept)
    if (kept_bindings == bindings) return value;
  T value = compute(entry.symbols, bindings);
  if (entry.kept.size() >= bindings_kept) entry.kept.erase(entry.kept.begin());
  entry.kept.emplace_back(std::move(bindings), value);
  return value;
}

ValueRange SolveMemo::bound(const Expr& e, const RangeOfName& range_of, const std::function<ValueRange()>& compute) {
  return by_binding<ValueRange, ValueRange>(bounds_, solutions_kept, e, range_of,
                                            [&](const auto&, const auto&) { return compute(); });
}

Expr SolveMemo::without_trivial_max(const Expr& e, const RangeOfName& range_of, const std::function<Expr()>& compute) {
  return by_binding<ValueRange, Expr>(without_max_, solutions_kept, e, range_of,
                                      [&](const auto&, const auto&) { return compute(); });
}

std::optional<int64_t> SolveMemo::hint(const Expr& e, const HintOfName& hint_of,
                                       const std::function<std::optional<int64_t>()>& compute) {
  return by_binding<std::optional<int64_t>, std::optional<int64_t>>(
      hints_, relations_kept, e, hint_of, [&](const auto&, const auto&) { return compute(); });
}

std::optional<Expr> SolveMemo::substituted(const Expr& e, const BoundTo& bound_to) {
  const auto substitute = [&](const std::vector<std::string>& symbols,
                              const std::vector<std::optional<Expr>>& values) -> std::optional<Expr> {
    std::map<std::string, Expr> subs;
    for (size_t i = 0; i < symbols.size(); ++i) {
      if (!values[i]) return std::nullopt;
      subs.emplace(symbols[i], *values[i]);
    }
    return e.substitute(subs);
  };
  return by_binding<std::optional<Expr>, std::optional<Expr>>(substituted_, solutions_kept, e, bound_to, substitute);
}

namespace {

Expr build(Expr::Kind kind, const Expr& a, const Expr& b) {
  switch (kind) {
    case Expr::Kind::FloorDiv: return Expr::floordiv(a, b);
    case Expr::Kind::Mod: return Expr::mod(a, b);
    case Expr::Kind::Mul: return a * b;
    case Expr::Kind::Max: return Expr::max(a, b);
    case Expr::Kind::Eq: return Expr::eq(a, b);
    case Expr::Kind::Ne: return Expr::ne(a, b);
    case Expr::Kind::Lt: return Expr::lt(a, b);
    case Expr::Kind::Le: return Expr::le(a, b);
    case Expr::Kind::Gt: return Expr::gt(a, b);
    case Expr::Kind::Ge: return Expr::ge(a, b);
    default: throw std::logic_error("SolveMemo::built: not a binary construction");
  }
}

}  // namespace

Expr SolveMemo::built(Expr::Kind kind, const Expr& a, const Expr& b) {
  BuildKey key{kind, a, b};
  if (auto it = built_.find(key); it != built_.end()) return it->second;
  bound_size(built_, relations_kept);
  const Expr out = build(kind, a, b);
  built_.emplace(std::move(key), out);
  return out;
}

Expr built(SolveMemo* memo, Expr::Kind kind, const Expr& a, const Expr& b) {
  return memo ? memo->built(kind, a, b) : build(kind, a, b);
}

const std::string& SolveMemo::text(const Expr& e) {
  if (auto it = text_.find(e); it != text_.end()) return it->second;
  std::string t = e.str();
  bound_size(text_, relations_kept);
  return text_.emplace(e, std::move(t)).first->second;
}

const std::string& SolveMemo::python_text(const Expr& e, const NameOf& name_of,
                                          const std::function<std::string()>& print) {
  auto it = python_.find(e);
  if (it == python_.end()) {
    bound_size(python_, relations_kept);
    it = python_.emplace(e, PythonText{e.free_symbols(), {}, {}}).first;
  }
  PythonText& entry = it->second;
  std::vector<std::string> names;
  names.reserve(entry.symbols.size());
  for (const std::string& s : entry.symbols) names.push_back(name_of(s));
  if (entry.text.empty() || names != entry.names) {
    entry.text = print();
    entry.names = std::move(names);
  }
  return entry.text;
}

size_t SolveMemo::size() const {
  return canonical_.size() + difference_.size() + facts_.size() + isolated_.size() + bounds_.size() +
         without_max_.size() + hints_.size() + built_.size() + substituted_.size() + text_.size() + python_.size();
}

}  // namespace exportlens::symbolic

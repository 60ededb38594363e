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

template <typename T>
T SolveMemo::ranged(std::unordered_map<Expr, Ranged<T>>& table, const Expr& e, const RangeOfName& range_of,
                    const std::function<T()>& compute) {
  auto it = table.find(e);
  if (it == table.end()) {
    bound_size(table, solutions_kept);
    it = table.emplace(e, Ranged<T>{e.free_symbols(), {}}).first;
  }
  Ranged<T>& entry = it->second;
  std::vector<ValueRange> ranges;
  ranges.reserve(entry.symbols.size());
  for (const std::string& name : entry.symbols) ranges.push_back(range_of(name));
  for (const auto& [kept_ranges, value] : entry.kept)
    if (kept_ranges == ranges) return value;
  T value = compute();
  if (entry.kept.size() >= bindings_kept) entry.kept.erase(entry.kept.begin());
  entry.kept.emplace_back(std::move(ranges), value);
  return value;
}

ValueRange SolveMemo::bound(const Expr& e, const RangeOfName& range_of, const std::function<ValueRange()>& compute) {
  return ranged(bounds_, e, range_of, compute);
}

Expr SolveMemo::without_trivial_max(const Expr& e, const RangeOfName& range_of, const std::function<Expr()>& compute) {
  return ranged(without_max_, e, range_of, compute);
}

std::optional<int64_t> SolveMemo::hint(const Expr& e, const HintOfName& hint_of,
                                       const std::function<std::optional<int64_t>()>& compute) {
  if (auto it = hints_.find(e); it != hints_.end()) {
    const auto& hints = it->second.hints;
    if (std::all_of(hints.begin(), hints.end(), [&](const auto& h) { return hint_of(h.first) == h.second; }))
      return it->second.value;
  }
  HintedValue entry;
  for (const std::string& name : e.free_symbols()) entry.hints.emplace_back(name, hint_of(name));
  entry.value = compute();
  bound_size(hints_, relations_kept);
  const std::optional<int64_t> value = entry.value;
  hints_.insert_or_assign(e, std::move(entry));
  return value;
}

std::optional<Expr> SolveMemo::substituted(const Expr& e, const BoundTo& bound_to) {
  auto it = substituted_.find(e);
  if (it == substituted_.end()) {
    bound_size(substituted_, solutions_kept);
    it = substituted_.emplace(e, Substitutions{e.free_symbols(), {}}).first;
  }
  Substitutions& entry = it->second;
  std::vector<std::optional<Expr>> values;
  values.reserve(entry.sources.size());
  for (const std::string& s : entry.sources) values.push_back(bound_to(s));
  for (const Substitution& kept : entry.kept)
    if (kept.bound_to == values) return kept.expr;
  std::optional<Expr> out;
  if (std::all_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) {
    std::map<std::string, Expr> subs;
    for (size_t i = 0; i < entry.sources.size(); ++i) subs.emplace(entry.sources[i], *values[i]);
    out = e.substitute(subs);
  }
  if (entry.kept.size() >= bindings_kept) entry.kept.erase(entry.kept.begin());
  entry.kept.push_back({std::move(values), out});
  return out;
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

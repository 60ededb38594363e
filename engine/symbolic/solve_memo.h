#pragma once
// What the solves of one program can keep for each other: pure results of
// the symbolic work a re-solve (the GUI's live edit) asks for again, each
// keyed by everything it depends on, so nothing it keeps goes stale:
//
//  * a relation's canonical form (torch's canonicalize_bool_expr) and its
//    lhs - rhs: kilobytes of nested floordivs in a windowed model's recorded
//    guards, asked for after every node;
//  * what knowing a guard adds to the facts (each relation it implies, in
//    canonical form);
//  * isolate()'s solutions (range refinement, replacements, divisibility),
//    by the relation, what is solved for and which of its symbols are backed;
//  * an expression's bound, with the ranges of its symbols it was computed
//    from (the last few sets of ranges: a spec and its edit bound alike);
//  * an expression without its trivial Max(1, x) (x >= 1 by the ranges),
//    kept the same way;
//  * an expression's hint (its value for the example inputs), kept the
//    same way with its symbols' hints;
//  * an expression with its symbols substituted (a recorded guard in a
//    spec's symbols), for the last few bindings of each expression: a spec
//    edit that binds them alike gets the same expression back, and the memos
//    above then find it by identity;
//  * an expression built from two operands (a // b, torch's a % b, a * b,
//    Max(a, b), a relation), by its operands: the view rule divides a
//    kilobyte-long numel and the contiguity probes compare kilobyte-long
//    strides, and canonicalizing them is costly;
//  * a guard's printed text (sympy's str, and the Python form for the
//    symbols' names), which every solve reports.
//
// Owned by the prepared program (ops::PreparedProgram) and handed to each
// solve's ShapeEnv: the memory goes with the program, and solves of two
// programs share nothing. One solve uses a memo at a time (it is not
// thread-safe); the owner lends it out. Each table is emptied when it grows
// past its bound (specs the user keeps trying add entries).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/solve.h"
#include "engine/symbolic/value_range.h"

namespace exportlens::symbolic {

/// Canonical relations and their truth, as ShapeEnv keeps its facts.
using FactEntries = std::vector<std::pair<Expr, bool>>;

class SolveMemo {
 public:
  /// canonical_relation(relation).
  Expr canonical(const Expr& relation);
  /// lhs - rhs of a relation.
  Expr difference(const Expr& relation);
  /// What knowing `fact` adds to the facts (`compute()` when not kept).
  const FactEntries& fact_entries(const Expr& fact, const std::function<FactEntries()>& compute);
  /// isolate(relation, target, floordiv_inequality, backed); `names` are
  /// the relation's free symbols (the key holds which are backed; none are
  /// asked when `backed` is empty).
  std::optional<Isolated> isolated(const Expr& relation, const Expr& target, bool floordiv_inequality,
                                   const std::vector<std::string>& names, const PositiveSymbol& backed);
  /// The bound of `e` kept with its free symbols' ranges (`range_of`), or
  /// `compute()` when no kept set of ranges is theirs now.
  using RangeOfName = std::function<ValueRange(const std::string& name)>;
  ValueRange bound(const Expr& e, const RangeOfName& range_of, const std::function<ValueRange()>& compute);
  /// ShapeEnv's drop_trivial_max of `e` (`compute()`), kept as bound() keeps bounds.
  Expr without_trivial_max(const Expr& e, const RangeOfName& range_of, const std::function<Expr()>& compute);
  /// The hint of `e` kept with its free symbols' hints (`hint_of`), or
  /// `compute()` when no kept set of hints is theirs now.
  using HintOfName = std::function<std::optional<int64_t>(const std::string& name)>;
  std::optional<int64_t> hint(const Expr& e, const HintOfName& hint_of,
                              const std::function<std::optional<int64_t>()>& compute);
  /// `e` with each free symbol replaced by `bound_to(name)`; nullopt when
  /// one of them is unbound.
  using BoundTo = std::function<std::optional<Expr>(const std::string& name)>;
  std::optional<Expr> substituted(const Expr& e, const BoundTo& bound_to);

  /// a `kind` b: FloorDiv, Mod (torch's %), Mul, Max or a relation (Eq ... Ge).
  Expr built(Expr::Kind kind, const Expr& a, const Expr& b);

  /// e.str().
  const std::string& text(const Expr& e);
  /// `print()`: e in Python, kept with the names its free symbols had
  /// (`name_of`, by symbol name).
  using NameOf = std::function<std::string(const std::string& symbol)>;
  const std::string& python_text(const Expr& e, const NameOf& name_of, const std::function<std::string()>& print);

  /// Entries kept, over all tables (tests, diagnostics).
  size_t size() const;

 private:
  struct IsolateKey {
    Expr relation, target;
    bool floordiv_inequality;
    std::vector<bool> backed;
    bool operator==(const IsolateKey& o) const {
      return relation == o.relation && target == o.target && floordiv_inequality == o.floordiv_inequality &&
             backed == o.backed;
    }
  };
  struct IsolateKeyHash {
    size_t operator()(const IsolateKey& k) const { return k.relation.hash() * 31 + k.target.hash(); }
  };
  struct BuildKey {
    Expr::Kind kind;
    Expr a, b;
    bool operator==(const BuildKey& o) const { return kind == o.kind && a == o.a && b == o.b; }
  };
  struct BuildKeyHash {
    size_t operator()(const BuildKey& k) const { return (k.a.hash() * 31 + k.b.hash()) * 31 + size_t(k.kind); }
  };
  /// A value computed from an expression and what each of its free symbols
  /// is bound to now (its range, its hint, an expression), kept for the last
  /// few bindings: a spec and its edit (the GUI's live edit) both find theirs.
  template <typename Binding, typename T>
  struct ByBinding {
    std::vector<std::string> symbols;                       // the expression's free symbols
    std::vector<std::pair<std::vector<Binding>, T>> kept;  // by the symbols' bindings, oldest first
  };
  template <typename Binding, typename T>
  using ByBindingTable = std::unordered_map<Expr, ByBinding<Binding, T>>;
  /// The kept value of `e` for its symbols' bindings now (`binding_of`), or
  /// `compute(symbols, bindings)`, kept; the table is emptied past `most`.
  template <typename Binding, typename T>
  T by_binding(ByBindingTable<Binding, T>& table, size_t most, const Expr& e,
               const std::function<Binding(const std::string&)>& binding_of,
               const std::function<T(const std::vector<std::string>&, const std::vector<Binding>&)>& compute);

  struct PythonText {
    std::vector<std::string> symbols, names;
    std::string text;
  };

  std::unordered_map<Expr, Expr> canonical_;
  std::unordered_map<Expr, FactEntries> facts_;
  std::unordered_map<Expr, Expr> difference_;
  std::unordered_map<IsolateKey, std::optional<Isolated>, IsolateKeyHash> isolated_;
  ByBindingTable<ValueRange, ValueRange> bounds_;
  ByBindingTable<ValueRange, Expr> without_max_;
  ByBindingTable<std::optional<int64_t>, std::optional<int64_t>> hints_;
  ByBindingTable<std::optional<Expr>, std::optional<Expr>> substituted_;
  std::unordered_map<BuildKey, Expr, BuildKeyHash> built_;
  std::unordered_map<Expr, std::string> text_;
  std::unordered_map<Expr, PythonText> python_;
};

/// a `kind` b (as SolveMemo::built), through `memo` when there is one.
Expr built(SolveMemo* memo, Expr::Kind kind, const Expr& a, const Expr& b);
/// isolate() (as SolveMemo::isolated), through `memo` when there is one.
std::optional<Isolated> isolated(SolveMemo* memo, const Expr& relation, const Expr& target, bool floordiv_inequality,
                                 const std::vector<std::string>& names = {}, const PositiveSymbol& backed = {});

}  // namespace exportlens::symbolic

#pragma once
// The symbolic-shape environment of one trace, modelled on torch 2.13's
// ShapeEnv (torch/fx/experimental/symbolic_shapes.py): symbols with hints,
// sources and value ranges; hint-guided evaluation of booleans that records
// guards with provenance; equalities that eliminate symbols (replacements);
// inequalities that refine ranges; divisibility facts; runtime asserts for
// data-dependent (unbacked) conditions; and data-dependent errors.
//
// Backed input dims start at [2, int_oo] (0/1 specialization: hints 0 and 1
// become constants); unbacked symbols start at [-int_oo, int_oo]. Symbols are
// named as torch names them (symbol_names.h). No LibTorch, no Qt.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/base/error.h"
#include "engine/symbolic/check_message.h"
#include "engine/symbolic/expr.h"
#include "engine/symbolic/guard.h"
#include "engine/symbolic/symbol_names.h"
#include "engine/symbolic/value_range.h"

namespace exportlens::symbolic {

class SolveMemo;

struct SymbolRecord {
  Expr symbol;
  std::optional<int64_t> hint;  // absent: unbacked
  ValueRange range;
  std::vector<std::string> sources;  // "L['x'].size()[0]"; a phantom root's Dim name
  bool phantom = false;              // the root of derived Dims that no input uses directly
  Provenance origin;
  /// What last narrowed each end of the range (torch's var_to_range_sloc).
  std::optional<Provenance> lower_origin, upper_origin;
};

/// An error about one expression, with where that expression came from.
class ExpressionError : public Error {
 public:
  ExpressionError(ErrorKind kind, Expr expr, Provenance origin, const std::string& message)
      : Error(kind, {}, message), expr_(std::move(expr)), origin_(std::move(origin)) {}
  const Expr& expr() const { return expr_; }
  const Provenance& origin() const { return origin_; }

 private:
  Expr expr_;
  Provenance origin_;
};

/// "Could not guard on data-dependent expression ..." (torch's GuardOnDataDependentSymNode).
class DataDependentError : public ExpressionError {
 public:
  DataDependentError(Expr expr, Provenance origin, const std::string& message)
      : ExpressionError(ErrorKind::DataDependent, std::move(expr), std::move(origin), message) {}
};

/// An example input that contradicts its spec ("10 not in range [11, 18]").
class ConstraintViolationError : public Error {
 public:
  explicit ConstraintViolationError(const std::string& message) : Error(ErrorKind::Constraint, {}, message) {}
};

/// A torch._check / size check that is false for the example values.
class CheckFailedError : public ExpressionError {
 public:
  CheckFailedError(Expr expr, Provenance origin, const std::string& message)
      : ExpressionError(ErrorKind::Check, std::move(expr), std::move(origin), message) {}
};

class ShapeEnv {
 public:
  /// `memo` (symbolic/solve_memo.h): what the solves of one program keep for
  /// each other; it must outlive this object. Without one, everything is
  /// computed here (a trace, a lowering's per-node inference, a test).
  explicit ShapeEnv(SolveMemo* memo = nullptr) : memo_(memo) {}
  SolveMemo* memo() const { return memo_; }

  // ---- symbols ------------------------------------------------------------

  /// An input dimension: a constant when `range` is a single value (checked
  /// against the hint) or the hint is 0/1 and `specialize_zero_one`;
  /// otherwise a fresh symbol in [2, int_oo] & range. Throws
  /// ConstraintViolationError when the hint is outside the range.
  Expr create_backed(const std::string& source, int64_t hint, std::optional<ValueRange> range,
                     bool specialize_zero_one = true);
  /// The root of derived Dims no input uses directly (torch's phantom symbol).
  Expr create_phantom(const std::string& dim_name, int64_t hint, ValueRange range);
  /// A data-dependent value (item(), nonzero sizes): u0, u1, ...
  Expr create_unbacked(const Provenance& origin);
  void add_source(const Expr& symbol, const std::string& source);

  const SymbolRecord* find_symbol(const std::string& name) const;
  /// In creation order.
  const std::vector<std::string>& symbol_names() const { return order_; }
  bool is_unbacked(const Expr& symbol) const;

  // ---- reasoning without guards -------------------------------------------

  /// Apply replacements (transitively).
  Expr replace(const Expr& e) const;
  Expr simplify(const Expr& e) const { return replace(e); }
  ValueRange range_of_symbol(const Expr& symbol) const;
  ValueRange bound(const Expr& e) const;
  /// True/False when the ranges, replacements and recorded facts decide it.
  std::optional<bool> static_truth(const Expr& condition) const;
  std::optional<int64_t> static_value(const Expr& e) const;
  /// The value for the example inputs; nullopt when it needs an unbacked symbol.
  std::optional<int64_t> hint(const Expr& e) const;
  bool has_unbacked(const Expr& e) const;
  /// Whether a guard established base % divisor == 0 in the form torch's
  /// simplify looks it up (torch's `divisible`; simplify then turns
  /// base // divisor into an exact CleanDiv).
  bool is_divisible(const Expr& base, const Expr& divisor) const;
  /// A condition as torch's simplify() hands it to the static evaluation and
  /// to produce_guards: replace(), then the divisions guards proved exact
  /// simplified away (sizes keep them, as torch records them).
  Expr simplified_condition(const Expr& e) const;
  bool has_divisibility_facts() const { return !divisible_.empty(); }

  // ---- guards (hint-guided) -----------------------------------------------

  /// if/assert on a size: decides by the example values and records the
  /// guard (unless statically known). Throws DataDependentError when the
  /// condition needs an unbacked value.
  bool evaluate(const Expr& condition, const Provenance& origin);
  /// torch's guard_or_false / guard_or_true: like evaluate, but a
  /// data-dependent condition gives the fallback without a guard.
  bool guard_or_false(const Expr& condition, const Provenance& origin);
  bool guard_or_true(const Expr& condition, const Provenance& origin);
  /// torch._check(condition): a guard when hinted, a runtime assert when
  /// data-dependent. Throws CheckFailedError when false for the hints.
  void check(const Expr& condition, const Provenance& origin, const CheckMessage& message = {});
  /// int(e): specialize to the hint, recording Eq(e, hint).
  int64_t specialize(const Expr& e, const Provenance& origin);
  /// torch.sym_constrain_range: narrow a symbol's range (no guard).
  void constrain_range(const Expr& symbol, ValueRange range, const Provenance& origin);

  const std::vector<Guard>& guards() const { return guards_; }
  const std::vector<RuntimeAssertRecord>& runtime_asserts() const { return runtime_asserts_; }
  const std::vector<ReplacementRecord>& replacement_log() const { return replacement_log_; }
  const std::map<std::string, Expr>& replacements() const { return replacements_; }
  /// TORCH_LOGS=+dynamic style lines: create_symbol, eval [guard added], set_replacement, ...
  const std::vector<std::string>& log() const { return log_; }
  void set_logging(bool on) { logging_ = on; }

 private:
  std::string new_symbol_name(const std::string& source);
  void log_line(std::string line);
  Expr drop_trivial_max(const Expr& e) const;
  Expr without_exact_nested_divisions(const Expr& e) const;
  /// static_truth over symbols moved to be exactly positive (torch's _maybe_evaluate_static).
  std::optional<bool> shifted_truth(const Expr& e) const;
  /// A symbol's range by its name (what the memo's ranged tables ask).
  std::function<ValueRange(const std::string&)> range_of_name() const;
  bool decide(const Expr& condition, const Provenance& origin, std::optional<bool> fallback);
  void record_guard(const Expr& guard, const Provenance& origin);
  void maybe_guard_relation(const Expr& guard, const Provenance& origin);
  void refine_ranges(const Expr& relation, const Provenance& origin);
  void set_replacement(const Expr& symbol, const Expr& target, const std::string& reason,
                       const Provenance& origin);
  void update_range(const Expr& symbol, const ValueRange& range, const Provenance& origin);
  void add_fact(const Expr& fact);
  std::optional<bool> known_fact(const Expr& condition) const;
  [[noreturn]] void data_dependent(const Expr& expr, const Provenance& origin) const;
  // Replacements and ranges changed: replace() and bound() results are stale.
  // (New facts and divisibility do not change either.)
  void bump_version() { ++version_; }
  const Expr& canonical(const Expr& relation) const;

  SolveMemo* memo_ = nullptr;
  SymbolNamer namer_;
  std::unordered_map<std::string, SymbolRecord> symbols_;
  std::vector<std::string> order_;
  std::map<std::string, Expr> replacements_;
  std::set<Expr> divisible_;               // Mod(a, b) known to be 0
  std::unordered_map<Expr, bool> facts_;  // canonical relation -> truth
  std::vector<Guard> guards_;
  std::vector<RuntimeAssertRecord> runtime_asserts_;
  std::vector<ReplacementRecord> replacement_log_;
  std::vector<std::string> log_;
  bool logging_ = true;
  uint64_t version_ = 0;
  mutable uint64_t cache_version_ = 0;
  mutable std::unordered_map<Expr, Expr> replace_cache_;
  mutable std::unordered_map<Expr, ValueRange> bound_cache_;  // kept with replace_cache_
  // canonical_relation is pure and its symbolic arithmetic costly: the solver
  // asks for the same relations again after every node (recorded guards).
  // (The memo keeps them across solves; this, within one.)
  mutable std::unordered_map<Expr, Expr> canonical_cache_;
};

/// Torch's canonical form of a relation for fact lookups: (lhs - rhs) REL 0
/// with Gt/Ge turned into Lt/Le and a sign-normalized Eq/Ne.
Expr canonical_relation(const Expr& relation);

/// b % d == 0 for each b // (b // d) in `e`: the facts under which torch's
/// simplify reads that nested division as d (see is_divisible).
std::vector<Expr> nested_division_facts(const Expr& e);

}  // namespace exportlens::symbolic

#pragma once
// The end of an export trace, as torch 2.13 does it in
// produce_guards_and_solve_constraints and make_constraints:
//  1. the spec's relations are checked and guarded (shared / derived Dims);
//  2. every input dimension's final value is compared with what the spec
//     asked (a Dim that specialized, two Dims that must be equal, ...);
//  3. every recorded guard and every symbol's final range is checked against
//     the spec's ranges;
//  4. the solver (torch's DimConstraints) summarizes the guards into
//     suggested fixes in torch's text ("dx = Dim('dx', max=16)", "dy = dx").
// On success, the range constraints of the program are computed.
#include <optional>
#include <string>
#include <vector>

#include "engine/symbolic/guard.h"
#include "engine/symbolic/shape_env.h"
#include "engine/symbolic/spec_binding.h"

namespace exportlens::symbolic {

struct ConstraintViolation {
  enum class Kind {
    Specialized,        // a dynamic Dim became a constant
    MustBeEqual,        // two independent Dims must be equal
    MustBeRelated,      // a Dim must be a derived function of another
    InferredEqual,      // a Dim was inferred equal to an expression
    GuardNotSatisfied,  // a guard excludes values of the Dim's range
    RangeNotSatisfied,  // the Dim's inferred range is narrower than specified
  };
  Kind kind = Kind::GuardNotSatisfied;
  std::string debug_name;  // the spec item named in "Constraints violated (...)"
  std::string source;      // the input dimension, "L['x'].size()[0]"
  std::string message;     // torch's text for this item
  std::optional<Expr> guard;       // the guard or relation at fault
  std::optional<Provenance> origin;  // where that guard came from
};

struct SuggestedFix {
  std::string name;  // the Dim it changes
  std::string text;  // "dx = Dim('dx', max=16)", "d1 = 4", "dy = dx"
};

struct ConstraintReport {
  std::vector<ConstraintViolation> violations;
  /// "dx = L['x'].size()[0]" -> the value it specialized to, when no violation
  /// was raised but the solver found one anyway.
  std::vector<std::pair<std::string, std::string>> forced_specializations;
  std::vector<SuggestedFix> fixes;
  /// An equality of the spec that the example inputs already break (torch raises
  /// it before anything else): "Expected input L['y'].size()[0] to be equal to ...".
  std::string early_error;
  /// torch's whole message: "Constraints violated (dx, dy)! ...\nSuggested fixes:\n  ..."
  std::string message;

  bool failed() const { return !early_error.empty() || !violations.empty() || !forced_specializations.empty(); }
  std::string fixes_text() const;  // the lines after "Suggested fixes:", one per line
};

/// Steps 1-4 above. Records the spec-relation guards in `env`.
ConstraintReport check_constraints(ShapeEnv& env, const SpecBinding& binding, const DynamicShapesSpec& spec);

struct RangeConstraint {
  Expr expr;          // a symbol, or an input dimension's expression ("s77 + 1")
  ValueRange range;
};

struct RangeConstraintsResult {
  std::vector<RangeConstraint> entries;
  /// make_constraints' conflicts ("- Received user-specified dim hint Dim.DYNAMIC(...) ...").
  std::vector<std::string> conflicts;
};

/// torch's make_constraints: ranges of the input dimensions' expressions
/// (the spec's bounds for named Dims, inferred ones for hints), then of
/// the remaining root symbols; `unbacked` are the program's data-dependent
/// symbols (their ranges come first, as torch's inline constraints).
RangeConstraintsResult compute_range_constraints(ShapeEnv& env, const SpecBinding& binding,
                                                 const std::vector<Expr>& unbacked);

}  // namespace exportlens::symbolic

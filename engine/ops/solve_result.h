#pragma once
// The outcome of solving a dynamic_shapes spec against a program, as plain
// data for the CLI (text and JSON) and for views: status, range constraints,
// symbolic input shapes, every guard with its provenance, violations with the
// guard and node behind them, suggested fixes (and the spec with them applied),
// symbols, replacements, per-node shapes, diagnostics and the guard log.
#include <optional>
#include <string>
#include <vector>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/export_constraints.h"
#include "engine/symbolic/guard.h"

namespace exportlens::ops {

enum class SolveStatus { Ok, Violation, Error };
std::string_view status_name(SolveStatus s);  // "ok", "violation", "error"

struct GuardInfo {
  std::string expr;    // sympy text, "Eq(s2, s4)"
  std::string python;  // over sources, "L['x'].size()[0] == L['y'].size()[1]"
  symbolic::Provenance origin;
  bool runtime_assert = false;  // deferred to run time (data-dependent)
};

struct SymbolInfo {
  std::string name;                 // "s77", "u0"
  std::optional<int64_t> hint;
  std::string lower, upper;         // "2", "int_oo"
  std::vector<std::string> sources;
  std::string replaced_by;          // "s17 + 2" when eliminated
};

struct ReplacementInfo {
  std::string symbol, target, reason;
  symbolic::Provenance origin;
};

struct InputShapeInfo {
  std::string name;               // forward argument
  bool is_tensor = true;
  std::vector<std::string> dims;  // "s77", "5", "s17*s77"
};

struct RangeInfo {
  std::string expr;          // "s77", "s77 + 1"
  std::string lower, upper;  // "2", "int_oo"
};

struct ViolationInfo {
  std::string kind;        // "specialized", "must_be_equal", ...
  std::string debug_name;  // the spec item
  std::string source;      // "L['x'].size()[0]"
  std::string message;     // torch's line
  std::string guard;       // the guard at fault (sympy text), if any
  std::optional<symbolic::Provenance> origin;
};

struct NodeShapeInfo {
  std::string node;
  std::string value;  // "f32[s77, 5]"
};

struct Diagnostic {
  std::string node;  // empty for program-level notes
  std::string op;
  std::string message;
};

/// One entry of the draft_export-style report (ops/problem_report.h).
struct ProblemInfo {
  std::string kind;     // "constraint_violation", "specialization", "data_dependent_guard", ...
  std::string subject;  // the spec item ("height = L['x'].size()[2]"), the op, or the expression
  std::string message;  // torch's words where torch has them
  std::optional<symbolic::Provenance> origin;
  std::string guard;    // the guard at fault (sympy text), if any
};

struct SolveResult {
  SolveStatus status = SolveStatus::Ok;
  std::string error_kind;  // "spec", "constraint", "range_conflict", "data_dependent", "check", "internal"
  std::string message;     // torch's message for a violation or error
  std::string spec_text;   // the spec as ExportLens reads it, printed back
  std::string spec_json;   // the same in the JSON form (spec_json.h)
  std::vector<RangeInfo> range_constraints;
  std::vector<InputShapeInfo> input_shapes;
  std::vector<GuardInfo> guards;
  std::vector<ViolationInfo> violations;
  std::vector<symbolic::SuggestedFix> suggested_fixes;
  std::string suggested_fixes_text;  // one fix per line, torch's text
  std::string fixed_spec_text;       // the spec with the fixes applied ("" if none)
  std::vector<SymbolInfo> symbols;
  std::vector<ReplacementInfo> replacements;
  std::vector<NodeShapeInfo> node_shapes;
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> log;  // TORCH_LOGS=+dynamic style
  /// With SolveOptions::collect_all: every problem of the solve (problem_report.h);
  /// trace_problems are those the trace met itself (data-dependent guards).
  std::vector<ProblemInfo> problems;
  std::vector<ProblemInfo> trace_problems;
  double solve_ms = 0;
};

/// Fills `r`'s violations, suggested fixes and fixed spec from a failed
/// constraint check of `spec` (the solver's and the tracer's shared verdict).
void record_violations(SolveResult& r, const symbolic::ConstraintReport& report, const symbolic::DynamicShapesSpec& spec);

/// The machine-readable form (`exportlens check --json`).
std::string to_json(const SolveResult& r);
/// The human form; `verbose` adds the guard log.
std::string format_text(const SolveResult& r, bool verbose);

}  // namespace exportlens::ops

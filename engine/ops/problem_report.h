#pragma once
// The draft_export-style report of a solve (`exportlens check --report`, the
// GUI's Violations dock): every problem found in one pass, each with its
// origin (node, op, rule, source line), instead of stopping at the first:
//
//   constraint_violation  a spec item the program's guards do not allow
//                         (range, equality, relation), with the guard
//   specialization        a spec item the program forces to a constant
//   data_dependent_guard  a guard on a data-dependent value the trace could
//                         not decide (torch raises GuardOnDataDependentSymNode);
//                         the solve goes on with that node's example sizes
//   no_shape_rule         an op the solver has no rule for: its output is
//                         specialized to the example sizes
//   recorded_guard_false  a guard the file recorded is false for the example
//
// Solving with SolveOptions::collect_all fills SolveResult::problems.
#include <string>

#include "engine/ops/solve_result.h"

namespace exportlens::ops {

/// The problems of a finished solve, in trace order: data-dependent guards
/// and notes as the trace met them, then the spec's violations.
std::vector<ProblemInfo> collect_problems(const SolveResult& r);

/// The human form: one numbered entry per problem, then the suggested fixes.
std::string format_report(const SolveResult& r);

}  // namespace exportlens::ops

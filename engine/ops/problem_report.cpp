#include "engine/ops/problem_report.h"

#include <sstream>

namespace exportlens::ops {

std::vector<ProblemInfo> collect_problems(const SolveResult& r) {
  std::vector<ProblemInfo> out = r.trace_problems;
  for (const auto& d : r.diagnostics) {
    if (d.message.rfind("no shape rule", 0) == 0 || d.message.find("; its output shapes are specialized") != std::string::npos) {
      symbolic::Provenance o;
      o.node = d.node;
      o.op = d.op;
      out.push_back({"no_shape_rule", d.op, d.message, o});
    } else if (d.message.rfind("recorded guard is false", 0) == 0) {
      out.push_back({"recorded_guard_false", d.node, d.message, std::nullopt});
    }
  }
  for (const auto& v : r.violations)
    out.push_back({v.kind == "specialized" ? "specialization" : "constraint_violation",
                   v.debug_name + (v.source.empty() ? "" : " = " + v.source), v.message, v.origin, v.guard});
  return out;
}

std::string format_report(const SolveResult& r) {
  std::ostringstream out;
  const auto& problems = r.problems;
  out << "status: " << status_name(r.status) << "\n";
  if (problems.empty()) {
    out << "\nNo problems: the spec holds for every input it allows.\n";
  } else {
    out << "\n" << problems.size() << (problems.size() == 1 ? " problem" : " problems") << " found in one pass:\n";
    for (size_t i = 0; i < problems.size(); ++i) {
      const ProblemInfo& p = problems[i];
      out << "\n" << i + 1 << ". " << p.kind << ": " << p.subject << "\n";
      std::istringstream lines(p.message);
      for (std::string line; std::getline(lines, line);) out << "   " << line << "\n";
      if (!p.guard.empty()) out << "   guard: " << p.guard << "\n";
      if (p.origin) {
        out << "   origin: " << p.origin->describe() << "\n";
        if (!p.origin->code.empty()) out << "   code: " << p.origin->code << "\n";
      }
    }
  }
  if (!r.suggested_fixes_text.empty()) out << "\nSuggested fixes:\n" << r.suggested_fixes_text << "\n";
  if (!r.fixed_spec_text.empty()) out << "\nThe spec with the suggested fixes applied:\n" << r.fixed_spec_text;
  return out.str();
}

}  // namespace exportlens::ops

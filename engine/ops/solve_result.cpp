// The JSON and text forms of a SolveResult.
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/ops/solve_result.h"

namespace exportlens::ops {

namespace {

using Json = nlohmann::ordered_json;

std::string_view kind_name(symbolic::Provenance::Kind k) {
  using K = symbolic::Provenance::Kind;
  switch (k) {
    case K::ShapeRule: return "shape_rule";
    case K::RecordedGuard: return "recorded_guard";
    case K::SpecRelation: return "spec";
    case K::RuntimeAssert: return "runtime_assert";
    case K::Input: return "input";
  }
  return "unknown";
}

Json bound(const std::string& b) {
  if (b == "int_oo" || b == "-int_oo") return b;
  try {
    return std::stoll(b);
  } catch (const std::exception&) {
    return b;
  }
}

Json provenance(const symbolic::Provenance& p) {
  Json j;
  j["kind"] = kind_name(p.kind);
  j["node"] = p.node;
  j["op"] = p.op;
  j["rule"] = p.rule;
  j["location"] = p.location;
  j["code"] = p.code;
  j["detail"] = p.detail;
  j["text"] = p.describe();
  return j;
}

}  // namespace

std::string to_json(const SolveResult& r) {
  Json j;
  j["status"] = status_name(r.status);
  j["error_kind"] = r.error_kind;
  j["message"] = r.message;
  j["spec"] = r.spec_text;
  j["spec_json"] = r.spec_json.empty() ? Json(nullptr) : Json::parse(r.spec_json);
  Json ranges = Json::object();
  for (const auto& rc : r.range_constraints) ranges[rc.expr] = Json::array({bound(rc.lower), bound(rc.upper)});
  j["range_constraints"] = ranges;
  Json shapes = Json::object();
  for (const auto& in : r.input_shapes) shapes[in.name] = in.is_tensor ? Json(in.dims) : Json(nullptr);
  j["input_shapes"] = shapes;
  Json guards = Json::array();
  for (const auto& g : r.guards)
    guards.push_back({{"expr", g.expr}, {"python", g.python}, {"runtime_assert", g.runtime_assert},
                      {"origin", provenance(g.origin)}});
  j["guards"] = guards;
  Json violations = Json::array();
  for (const auto& v : r.violations) {
    Json o = {{"kind", v.kind}, {"debug_name", v.debug_name}, {"source", v.source}, {"message", v.message},
              {"guard", v.guard}};
    o["origin"] = v.origin ? provenance(*v.origin) : Json(nullptr);
    violations.push_back(o);
  }
  j["violations"] = violations;
  j["suggested_fixes"] = r.suggested_fixes_text;
  Json fixes = Json::array();
  for (const auto& f : r.suggested_fixes) fixes.push_back({{"name", f.name}, {"text", f.text}});
  j["suggested_fix_list"] = fixes;
  j["fixed_spec"] = r.fixed_spec_text;
  Json symbols = Json::array();
  for (const auto& s : r.symbols) {
    Json o = {{"name", s.name}, {"range", Json::array({bound(s.lower), bound(s.upper)})}, {"sources", s.sources},
              {"replaced_by", s.replaced_by}};
    o["hint"] = s.hint ? Json(*s.hint) : Json(nullptr);
    symbols.push_back(o);
  }
  j["symbols"] = symbols;
  Json replacements = Json::array();
  for (const auto& rep : r.replacements)
    replacements.push_back({{"symbol", rep.symbol}, {"target", rep.target}, {"reason", rep.reason},
                            {"origin", provenance(rep.origin)}});
  j["replacements"] = replacements;
  Json nodes = Json::object();
  for (const auto& n : r.node_shapes) nodes[n.node] = n.value;
  j["node_shapes"] = nodes;
  Json diags = Json::array();
  for (const auto& d : r.diagnostics) diags.push_back({{"node", d.node}, {"op", d.op}, {"message", d.message}});
  j["diagnostics"] = diags;
  if (!r.problems.empty()) {
    Json problems = Json::array();
    for (const auto& p : r.problems) {
      Json o = {{"kind", p.kind}, {"subject", p.subject}, {"message", p.message}, {"guard", p.guard}};
      o["origin"] = p.origin ? provenance(*p.origin) : Json(nullptr);
      problems.push_back(o);
    }
    j["problems"] = problems;
  }
  j["solve_ms"] = r.solve_ms;
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string format_text(const SolveResult& r, bool verbose) {
  std::ostringstream out;
  out << "status: " << status_name(r.status) << "\n";
  if (!r.message.empty()) out << "\n" << r.message << "\n";
  if (r.status == SolveStatus::Ok) {
    out << "\nInput shapes:\n";
    for (const auto& in : r.input_shapes) {
      if (!in.is_tensor) continue;
      out << "  " << in.name << ": [";
      for (size_t i = 0; i < in.dims.size(); ++i) out << (i ? ", " : "") << in.dims[i];
      out << "]\n";
    }
    out << "\nRange constraints: {";
    for (size_t i = 0; i < r.range_constraints.size(); ++i)
      out << (i ? ", " : "") << r.range_constraints[i].expr << ": VR[" << r.range_constraints[i].lower << ", "
          << r.range_constraints[i].upper << "]";
    out << "}\n";
  }
  if (!r.fixed_spec_text.empty()) out << "\nThe spec with the suggested fixes applied:\n" << r.fixed_spec_text;
  if (!r.guards.empty()) {
    out << "\nGuards (" << r.guards.size() << "):\n";
    for (const auto& g : r.guards)
      out << "  " << (g.runtime_assert ? "runtime_assert " : "") << g.expr << "    # " << g.origin.describe() << "\n";
  }
  if (!r.diagnostics.empty()) {
    out << "\nNotes:\n";
    for (const auto& d : r.diagnostics) out << "  " << (d.node.empty() ? "" : d.node + ": ") << d.message << "\n";
  }
  if (verbose && !r.log.empty()) {
    out << "\nLog (TORCH_LOGS=+dynamic style):\n";
    for (const auto& l : r.log) out << "  " << l << "\n";
  }
  return out.str();
}

namespace {

std::string violation_kind_name(symbolic::ConstraintViolation::Kind k) {
  using K = symbolic::ConstraintViolation::Kind;
  switch (k) {
    case K::Specialized: return "specialized";
    case K::MustBeEqual: return "must_be_equal";
    case K::MustBeRelated: return "must_be_related";
    case K::InferredEqual: return "inferred_equal";
    case K::GuardNotSatisfied: return "guard_not_satisfied";
    case K::RangeNotSatisfied: return "range_not_satisfied";
  }
  return "violation";
}

}  // namespace

void record_violations(SolveResult& r, const symbolic::ConstraintReport& report, const symbolic::DynamicShapesSpec& spec) {
  for (const auto& v : report.violations)
    r.violations.push_back(
        {violation_kind_name(v.kind), v.debug_name, v.source, v.message, v.guard ? v.guard->str() : "", v.origin});
  r.suggested_fixes = report.fixes;
  r.suggested_fixes_text = report.fixes_text();
  if (report.fixes.empty()) return;
  try {
    r.fixed_spec_text = symbolic::print_dynamic_shapes(symbolic::apply_suggested_fixes(spec, r.suggested_fixes_text));
  } catch (const std::exception& e) {
    r.diagnostics.push_back({"", "", std::string("the suggested fixes could not be applied: ") + e.what()});
  }
}

}  // namespace exportlens::ops

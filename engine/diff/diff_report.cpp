#include "engine/diff/diff_report.h"

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/ir/op_key.h"
#include "engine/structure/instance_comparison.h"

namespace exportlens::diff {
namespace {

std::string scope_path(const matching::IndexedProgram& p, int node) {
  const auto& h = p.hierarchy();
  const int s = h.scope_of[static_cast<size_t>(node)];
  return s <= ir::ModuleHierarchy::kRoot ? "" : h[s].path;
}

std::string node_text(const matching::IndexedProgram& p, int node) {
  const ir::Node& n = *p.nodes()[static_cast<size_t>(node)];
  const std::string op = n.op == ir::OpKind::CallFunction ? ir::op_key(n.target) : std::string(ir::op_kind_name(n.op));
  const std::string path = scope_path(p, node);
  return n.name + " = " + op + " " + structure::value_text(n.value) + (path.empty() ? "" : "  [" + path + "]");
}

std::string changes_text(const NodeDiff& d) {
  std::string s;
  for (const Change& c : d.changes)
    s += (s.empty() ? "" : "; ") + std::string(aspect_name(c.aspect)) + (c.what.empty() ? "" : " " + c.what) + ": " +
         c.before + " → " + c.after;
  return s;
}

std::string plural(size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

std::string reasons_text(const ProgramDiff& d) {
  std::map<matching::MatchReason, size_t> by;
  for (const auto& m : d.matching.a_to_b)
    if (m.matched()) ++by[m.reason];
  std::string s;
  for (const auto& [r, n] : by) s += (s.empty() ? "" : ", ") + std::to_string(n) + " by " + std::string(matching::reason_name(r));
  return s;
}

void change_lines(std::ostringstream& out, const std::vector<SignatureChange>& changes) {
  for (const auto& c : changes) {
    out << "  " << status_name(c.status) << " " << c.what << ": ";
    if (c.status == Status::Added) out << c.after;
    else if (c.status == Status::Removed) out << c.before;
    else out << c.before << " → " << c.after;
    out << "\n";
  }
}

}  // namespace

std::string format_diff(const matching::IndexedProgram& a, const matching::IndexedProgram& b, const ProgramDiff& d,
                        const ReportNames& names) {
  std::ostringstream out;
  out << "A: " << names.a << " (" << plural(a.size(), "node", "nodes") << ")\n";
  out << "B: " << names.b << " (" << plural(b.size(), "node", "nodes") << ")\n";
  out << (d.same() ? "same" : "differ") << ": " << d.counts.same << " same, " << d.counts.changed << " changed, "
      << d.counts.added << " added, " << d.counts.removed << " removed\n";
  out << "matching (" << matching::derivation_name(d.matching.derivation) << "): " << d.matching.matched_count()
      << " of A's nodes matched (" << reasons_text(d) << ")\n";
  if (!d.modules.empty()) {
    out << "\nmodules:\n";
    for (const ModuleChange& m : d.modules) {
      const char* mark = m.status == Status::Added ? "+ " : m.status == Status::Removed ? "- " : "";
      out << "  " << mark << (m.path.empty() ? "(top level)" : m.path) << ": " << m.text << "\n";
    }
  }
  out << "\nsignature:" << (d.signature.empty() ? " same\n" : "\n");
  change_lines(out, d.signature);
  const GuardDiff& g = d.guards;
  if (!g.compared) {
    out << "guards: " << g.note << "\n";
  } else {
    const bool same = g.only_a.empty() && g.only_b.empty() && g.ranges.empty() && g.input_shapes.empty();
    std::string spec = g.spec;
    while (!spec.empty() && spec.back() == '\n') spec.pop_back();
    out << "guards and ranges, both solved under `" << spec << "`:" << (same ? " same\n" : "\n");
    for (const auto& x : g.only_a) out << "  only in A: " << x << "\n";
    for (const auto& x : g.only_b) out << "  only in B: " << x << "\n";
    change_lines(out, g.ranges);
    change_lines(out, g.input_shapes);
  }
  size_t differing = 0;
  for (const auto& w : d.weights) differing += w.status != Status::Same;
  out << "weights:" << (differing == 0 ? " same" : "") << "\n";
  for (const auto& w : d.weights) {
    if (w.status == Status::Same && !w.note.empty()) {
      out << "  " << w.kind << " " << w.name_a << ": " << w.note << "\n";
      continue;
    }
    if (w.status == Status::Same) continue;
    out << "  " << status_name(w.status) << " " << w.kind << " ";
    if (w.status == Status::Added) out << w.name_b << ": " << w.after;
    else if (w.status == Status::Removed) out << w.name_a << ": " << w.before;
    else {
      out << w.name_a << (w.name_b != w.name_a ? " → " + w.name_b : "") << ": ";
      if (w.before != w.after) out << w.before << " → " << w.after;
      else if (w.max_abs_diff) out << "values differ, max |Δ| " << *w.max_abs_diff;
    }
    out << "\n";
  }
  std::ostringstream changed, added, removed;
  for (const NodeDiff& n : d.nodes) {
    if (n.status == Status::Changed)
      changed << "  " << a.nodes()[static_cast<size_t>(n.a)]->name << " → " << b.nodes()[static_cast<size_t>(n.b)]->name
              << (scope_path(b, n.b).empty() ? "" : "  [" + scope_path(b, n.b) + "]") << ": " << changes_text(n) << "\n";
    else if (n.status == Status::Added) added << "  " << node_text(b, n.b) << "\n";
    else if (n.status == Status::Removed) removed << "  " << node_text(a, n.a) << "\n";
  }
  if (d.counts.changed) out << "\nchanged nodes:\n" << changed.str();
  if (d.counts.added) out << "\nadded nodes (in B only):\n" << added.str();
  if (d.counts.removed) out << "\nremoved nodes (in A only):\n" << removed.str();
  return out.str();
}

std::string diff_to_json(const matching::IndexedProgram& a, const matching::IndexedProgram& b, const ProgramDiff& d,
                         const ReportNames& names) {
  using nlohmann::json;
  auto changes_json = [](const std::vector<SignatureChange>& cs) {
    json out = json::array();
    for (const auto& c : cs)
      out.push_back({{"status", status_name(c.status)}, {"what", c.what}, {"before", c.before}, {"after", c.after}});
    return out;
  };
  json j;
  j["same"] = d.same();
  j["a"] = {{"name", names.a}, {"nodes", a.size()}};
  j["b"] = {{"name", names.b}, {"nodes", b.size()}};
  j["derivation"] = matching::derivation_name(d.matching.derivation);
  j["counts"] = {{"same", d.counts.same}, {"changed", d.counts.changed}, {"added", d.counts.added}, {"removed", d.counts.removed}};
  json modules = json::array();
  for (const auto& m : d.modules) modules.push_back({{"status", status_name(m.status)}, {"path", m.path}, {"text", m.text}});
  j["modules"] = modules;
  json nodes = json::array();
  for (const NodeDiff& n : d.nodes) {
    if (n.status == Status::Same) continue;
    json e = {{"status", status_name(n.status)}};
    e["a"] = n.a >= 0 ? json(a.nodes()[static_cast<size_t>(n.a)]->name) : json(nullptr);
    e["b"] = n.b >= 0 ? json(b.nodes()[static_cast<size_t>(n.b)]->name) : json(nullptr);
    e["module"] = n.b >= 0 ? scope_path(b, n.b) : scope_path(a, n.a);
    json cs = json::array();
    for (const Change& c : n.changes)
      cs.push_back({{"aspect", aspect_name(c.aspect)}, {"what", c.what}, {"before", c.before}, {"after", c.after}});
    e["changes"] = cs;
    nodes.push_back(e);
  }
  j["nodes"] = nodes;
  json matches = json::array();
  for (const auto& [x, y] : d.matching.pairs()) {
    const auto& m = d.matching.a_to_b[static_cast<size_t>(x)];
    matches.push_back({a.nodes()[static_cast<size_t>(x)]->name, b.nodes()[static_cast<size_t>(y)]->name, m.confidence,
                       matching::reason_name(m.reason)});
  }
  j["matches"] = matches;
  j["signature"] = changes_json(d.signature);
  json guards = {{"compared", d.guards.compared}, {"note", d.guards.note}, {"spec", d.guards.spec},
                 {"only_a", d.guards.only_a}, {"only_b", d.guards.only_b}};
  guards["ranges"] = changes_json(d.guards.ranges);
  guards["input_shapes"] = changes_json(d.guards.input_shapes);
  j["guards"] = guards;
  json weights = json::array();
  for (const auto& w : d.weights) {
    json e = {{"status", status_name(w.status)}, {"kind", w.kind}, {"a", w.name_a}, {"b", w.name_b},
              {"before", w.before}, {"after", w.after}, {"note", w.note}};
    e["max_abs_diff"] = w.max_abs_diff ? json(*w.max_abs_diff) : json(nullptr);
    weights.push_back(e);
  }
  j["weights"] = weights;
  return j.dump(1) + "\n";
}

}  // namespace exportlens::diff

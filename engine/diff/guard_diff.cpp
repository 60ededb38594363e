#include "engine/diff/guard_diff.h"

#include <functional>
#include <map>

#include "engine/ops/program_solver.h"
#include "engine/symbolic/parsers.h"

namespace exportlens::diff {
namespace {

using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;

// A's recorded spec with every dim B keeps symbolic made Dim.AUTO too; nullopt when the inputs differ.
std::optional<DynamicShapesSpec> common_spec(const ops::PreparedProgram& a, const ops::PreparedProgram& b) {
  DynamicShapesSpec spec = a.recorded_spec();
  const DynamicShapesSpec other = b.recorded_spec();
  if (spec.inputs.size() != other.inputs.size()) return std::nullopt;
  // Input by input, a nested argument part by part.
  const std::function<bool(symbolic::InputShapeSpec&, const symbolic::InputShapeSpec&)> widen =
      [&](symbolic::InputShapeSpec& in, const symbolic::InputShapeSpec& other_in) {
        if (in.dims.size() != other_in.dims.size() || in.items.size() != other_in.items.size() ||
            in.container != other_in.container)
          return false;
        for (size_t d = 0; d < in.dims.size(); ++d)
          if (other_in.dims[d].second.kind == DimSpec::Kind::Auto) in.dims[d].second.kind = DimSpec::Kind::Auto;
        for (size_t k = 0; k < in.items.size(); ++k)
          if (in.items[k].first != other_in.items[k].first || !widen(in.items[k].second, other_in.items[k].second))
            return false;
        return true;
      };
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    auto& [name, in] = spec.inputs[i];
    const auto& [other_name, other_in] = other.inputs[i];
    if (name != other_name || !widen(in, other_in)) return std::nullopt;
  }
  return spec;
}

// A guard in one form per meaning: a relation as `lhs - rhs` against 0
// (torch 2.8 recorded `Eq(s77 + 1, s17)` where 2.13 records `Eq(s77, s17 - 1)`).
std::string canonical_guard(const std::string& text) {
  using K = symbolic::Expr::Kind;
  symbolic::Expr e;
  try {
    e = symbolic::parse_str_text(text);
  } catch (const std::exception&) {
    return text;
  }
  if (e.args().size() != 2) return e.str();
  const symbolic::Expr& a = e.args()[0];
  const symbolic::Expr& b = e.args()[1];
  const std::string ab = (a - b).str(), ba = (b - a).str();
  switch (e.kind()) {
    case K::Eq: return "0 == " + std::min(ab, ba);
    case K::Ne: return "0 != " + std::min(ab, ba);
    case K::Lt: return "0 < " + ba;
    case K::Le: return "0 <= " + ba;
    case K::Gt: return "0 < " + ab;
    case K::Ge: return "0 <= " + ab;
    default: return e.str();
  }
}

std::string range_text(const ops::RangeInfo& r) { return "[" + r.lower + ", " + r.upper + "]"; }

std::string dims_text(const ops::InputShapeInfo& s) {
  std::string t = "[";
  for (size_t k = 0; k < s.dims.size(); ++k) t += (k ? ", " : "") + s.dims[k];
  return t + "]";
}

// Entries by key on both sides: changed, removed (only in A) and added (only in B).
void compare_keyed(const std::map<std::string, std::string>& x, const std::map<std::string, std::string>& y,
                   const std::string& prefix, std::vector<SignatureChange>& out) {
  for (const auto& [k, v] : x) {
    const auto it = y.find(k);
    if (it == y.end()) out.push_back({Status::Removed, prefix + k, v, ""});
    else if (it->second != v) out.push_back({Status::Changed, prefix + k, v, it->second});
  }
  for (const auto& [k, v] : y)
    if (!x.count(k)) out.push_back({Status::Added, prefix + k, "", v});
}

}  // namespace

GuardDiff diff_guards(const ir::ExportedProgram& a, const ir::ExportedProgram& b) {
  GuardDiff g;
  const ops::PreparedProgram pa(a), pb(b);
  const auto spec = common_spec(pa, pb);
  if (!spec) {
    g.note = "not compared: the programs' inputs differ, so no one spec fits both";
    return g;
  }
  g.spec = symbolic::print_dynamic_shapes(*spec);
  ops::SolveOptions options;
  options.log = false;
  options.node_shapes = false;
  const ops::SolveResult ra = ops::solve(pa, *spec, options), rb = ops::solve(pb, *spec, options);
  g.compared = true;
  if (ra.status != rb.status || (ra.status != ops::SolveStatus::Ok && ra.message != rb.message)) {
    g.ranges.push_back({Status::Changed, "outcome", std::string(ops::status_name(ra.status)) + (ra.message.empty() ? "" : ": " + ra.message),
                        std::string(ops::status_name(rb.status)) + (rb.message.empty() ? "" : ": " + rb.message)});
  }
  std::map<std::string, std::string> ga, gb;  // canonical -> as the solve said it
  for (const auto& x : ra.guards) ga.emplace(canonical_guard(x.expr), x.expr);
  for (const auto& x : rb.guards) gb.emplace(canonical_guard(x.expr), x.expr);
  for (const auto& [key, text] : ga)
    if (!gb.count(key)) g.only_a.push_back(text);
  for (const auto& [key, text] : gb)
    if (!ga.count(key)) g.only_b.push_back(text);
  std::map<std::string, std::string> xa, xb;
  for (const auto& r : ra.range_constraints) xa[r.expr] = range_text(r);
  for (const auto& r : rb.range_constraints) xb[r.expr] = range_text(r);
  compare_keyed(xa, xb, "range ", g.ranges);
  std::map<std::string, std::string> sa, sb;
  for (const auto& s : ra.input_shapes) sa[s.name] = dims_text(s);
  for (const auto& s : rb.input_shapes) sb[s.name] = dims_text(s);
  compare_keyed(sa, sb, "input ", g.input_shapes);
  return g;
}

}  // namespace exportlens::diff

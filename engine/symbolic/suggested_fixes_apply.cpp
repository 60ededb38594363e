// torch's refine_dynamic_shapes_from_suggested_fixes on the spec model.
#include <regex>
#include <sstream>
#include <variant>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

namespace {

struct Linear {  // coeff * root + offset
  std::string root;
  int64_t coeff = 1, offset = 0;
};
using Fix = std::variant<int64_t, DimDecl, Linear>;

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// "2*_dx + 1" -> {_dx, 2, 1}; throws on anything else.
Linear parse_linear(const std::string& text, int line) {
  Expr e;
  try {
    e = Expr::parse(text);
  } catch (const std::exception& ex) {
    throw SpecError(line, 1, "cannot read the suggested fix '" + text + "': " + ex.what());
  }
  const auto names = e.free_symbols();
  if (names.size() != 1) throw SpecError(line, 1, "a suggested fix must relate one Dim, got '" + text + "'");
  Linear l{names[0]};
  const Expr x = Expr::symbol(names[0]);
  // e = c*x + b: read b at x = 0 and c from the difference at x = 1.
  const auto b = e.evaluate({{names[0], 0}});
  const auto one = e.evaluate({{names[0], 1}});
  if (!b || !one || !(e == Expr(*one - *b) * x + Expr(*b)))
    throw SpecError(line, 1, "a suggested fix must be of the form A*dim + B, got '" + text + "'");
  l.coeff = *one - *b;
  l.offset = *b;
  return l;
}

std::map<std::string, Fix> parse_fixes(std::string_view text) {
  std::string body(text);
  if (auto p = body.find("Suggested fixes:"); p != std::string::npos) body = body.substr(p + 16);
  static const std::regex dim_re(R"(^(\w+) = Dim\('(\w+)'(.*)\)$)");
  static const std::regex min_re(R"(min=(\d+))");
  static const std::regex max_re(R"(max=(\d+))");
  std::map<std::string, Fix> fixes;
  std::istringstream in(body);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string fix = trim(raw);
    if (fix.empty()) continue;
    std::smatch m;
    if (std::regex_match(fix, m, dim_re)) {
      DimDecl d{m[1].str(), std::nullopt, std::nullopt};
      const std::string rest = m[3].str();
      std::smatch b;
      if (std::regex_search(rest, b, min_re)) d.min = std::stoll(b[1].str());
      if (std::regex_search(rest, b, max_re)) d.max = std::stoll(b[1].str());
      fixes[d.name] = d;
      continue;
    }
    const auto eq = fix.find(" = ");
    if (eq == std::string::npos) throw SpecError(line, 1, "expected 'name = value' in the suggested fixes, got '" + fix + "'");
    const std::string name = fix.substr(0, eq), value = trim(fix.substr(eq + 3));
    try {
      size_t used = 0;
      const int64_t v = std::stoll(value, &used);
      if (used == value.size()) {
        fixes[name] = v;
        continue;
      }
    } catch (const std::exception&) {
    }
    fixes[name] = parse_linear(value, line);
  }
  return fixes;
}

}  // namespace

DynamicShapesSpec apply_suggested_fixes(const DynamicShapesSpec& spec, std::string_view text) {
  const std::map<std::string, Fix> fixes = parse_fixes(text);
  DynamicShapesSpec out = spec;
  std::map<std::string, DimDecl> decls = spec.dims;  // known Dims, updated by the fixes
  for (const auto& [name, fix] : fixes)
    if (auto* d = std::get_if<DimDecl>(&fix)) decls[name] = *d;
  // A fix "dy = 2*_dx + 1" introduces the root _dx when no fix or Dim names it.
  auto root_decl = [&](const std::string& root) -> DimDecl {
    if (auto it = decls.find(root); it != decls.end()) return it->second;
    return DimDecl{root, std::nullopt, std::nullopt};
  };
  // The value of a named Dim after the fixes: a Dim, an int, or a derived dim.
  auto resolve = [&](const std::string& name) -> DimSpec {
    DimSpec d;
    auto it = fixes.find(name);
    if (it == fixes.end() || std::holds_alternative<DimDecl>(it->second)) {
      d.kind = DimSpec::Kind::Named;
      d.dim = name;
      return d;
    }
    if (auto* v = std::get_if<int64_t>(&it->second)) {
      d.kind = DimSpec::Kind::Int;
      d.value = *v;
      return d;
    }
    const Linear& l = std::get<Linear>(it->second);
    if (auto root = fixes.find(l.root); root != fixes.end() && std::holds_alternative<int64_t>(root->second)) {
      d.kind = DimSpec::Kind::Int;
      d.value = l.coeff * std::get<int64_t>(root->second) + l.offset;
      return d;
    }
    d.kind = l.coeff == 1 && l.offset == 0 ? DimSpec::Kind::Named : DimSpec::Kind::Derived;
    d.dim = l.root;
    d.coeff = l.coeff;
    d.offset = l.offset;
    return d;
  };
  for (auto& [input_name, in] : out.inputs) {
    DynamicShapesSpec::for_each_dim(in, [&](DimSpec& d) {
      if (d.kind == DimSpec::Kind::Named && fixes.count(d.dim)) {
        d = resolve(d.dim);
      } else if (d.kind == DimSpec::Kind::Derived && fixes.count(d.dim)) {
        const DimSpec root = resolve(d.dim);
        DimSpec n = root;
        if (root.kind == DimSpec::Kind::Int) {
          n.value = d.coeff * root.value + d.offset;
        } else {
          n.coeff = d.coeff * root.coeff;
          n.offset = d.coeff * root.offset + d.offset;
          n.kind = n.coeff == 1 && n.offset == 0 ? DimSpec::Kind::Named : DimSpec::Kind::Derived;
        }
        d = n;
      }
    });
  }
  // Rebuild the Dim table from what the inputs now use.
  out.dims.clear();
  std::vector<std::string> order;
  for (const auto& [input_name, in] : out.inputs)
    DynamicShapesSpec::for_each_dim(in, [&](const DimSpec& d) {
      if (!d.dim.empty() && !out.dims.count(d.dim)) {
        out.dims.emplace(d.dim, root_decl(d.dim));
        order.push_back(d.dim);
      }
    });
  // Keep the original declaration order for Dims that stay, new roots after.
  out.dim_order.clear();
  for (const std::string& n : spec.dim_order)
    if (out.dims.count(n)) out.dim_order.push_back(n);
  for (const std::string& n : order)
    if (std::find(out.dim_order.begin(), out.dim_order.end(), n) == out.dim_order.end()) out.dim_order.push_back(n);
  std::map<std::string, std::string> vars;
  for (const std::string& n : out.dim_order) vars[n] = spec.variable_of.count(n) ? spec.variable_of.at(n) : n;
  out.variable_of = vars;
  out.conflicts.clear();
  return out;
}

}  // namespace exportlens::symbolic

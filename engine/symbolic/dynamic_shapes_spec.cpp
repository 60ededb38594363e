// The spec model's helpers and its printer (Python text).
#include <set>
#include <sstream>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string bounds_text(const std::optional<int64_t>& min, const std::optional<int64_t>& max) {
  std::string s;
  if (min) s += "min=" + std::to_string(*min);
  if (max) s += std::string(s.empty() ? "" : ", ") + "max=" + std::to_string(*max);
  return s;
}

/// coeff*root + offset in sympy's spelling, over the given root name.
std::string linear_text(const std::string& root, int64_t coeff, int64_t offset) {
  return (Expr(coeff) * Expr::symbol(root) + Expr(offset)).str();
}

std::string variable(const DynamicShapesSpec& spec, const std::string& dim) {
  auto it = spec.variable_of.find(dim);
  return it == spec.variable_of.end() ? dim : it->second;
}

std::string dim_text(const DynamicShapesSpec& spec, const DimSpec& d) {
  switch (d.kind) {
    case DimSpec::Kind::Unspecified:
    case DimSpec::Kind::None: return "None";
    case DimSpec::Kind::Static: return "Dim.STATIC";
    case DimSpec::Kind::Auto:
    case DimSpec::Kind::Dynamic: {
      std::string s = d.kind == DimSpec::Kind::Auto ? "Dim.AUTO" : "Dim.DYNAMIC";
      const std::string b = bounds_text(d.min, d.max);
      return b.empty() ? s : s + "(" + b + ")";
    }
    case DimSpec::Kind::Int: return std::to_string(d.value);
    case DimSpec::Kind::Named: return variable(spec, d.dim);
    case DimSpec::Kind::Derived: return linear_text(variable(spec, d.dim), d.coeff, d.offset);
  }
  return "None";
}

std::string input_text(const DynamicShapesSpec& spec, const InputShapeSpec& in) {
  std::string s;
  if (in.scalar) return dim_text(spec, *in.scalar);
  if (in.container) {
    const bool dict = in.form == InputShapeSpec::Form::Dict, tuple = in.form == InputShapeSpec::Form::Tuple;
    s = dict ? "{" : tuple ? "(" : "[";
    for (size_t i = 0; i < in.items.size(); ++i)
      s += (i ? ", " : "") + (dict ? quoted(in.items[i].first) + ": " : "") + input_text(spec, in.items[i].second);
    if (tuple && in.items.size() == 1) s += ",";
    return s + (dict ? "}" : tuple ? ")" : "]");
  }
  switch (in.form) {
    case InputShapeSpec::Form::None: return "None";
    case InputShapeSpec::Form::Tuple:
    case InputShapeSpec::Form::List: {
      const bool tuple = in.form == InputShapeSpec::Form::Tuple;
      s = tuple ? "(" : "[";
      for (size_t i = 0; i < in.dims.size(); ++i) s += (i ? ", " : "") + dim_text(spec, in.dims[i].second);
      if (tuple && in.dims.size() == 1) s += ",";
      return s + (tuple ? ")" : "]");
    }
    case InputShapeSpec::Form::Dict:
      s = "{";
      for (size_t i = 0; i < in.dims.size(); ++i)
        s += (i ? ", " : "") + std::to_string(in.dims[i].first) + ": " + dim_text(spec, in.dims[i].second);
      return s + "}";
  }
  return "None";
}

}  // namespace

DimSpec InputShapeSpec::at(int64_t i) const {
  for (const auto& [k, d] : dims)
    if (k == i) return d;
  return {};
}

std::vector<DimSpec> InputShapeSpec::per_dimension(size_t rank) const {
  std::vector<DimSpec> out(rank);
  std::vector<bool> seen(rank);  // the first entry of a key counts, as in at()
  for (const auto& [k, d] : dims)
    if (k >= 0 && static_cast<size_t>(k) < rank && !seen[static_cast<size_t>(k)]) {
      seen[static_cast<size_t>(k)] = true;
      out[static_cast<size_t>(k)] = d;
    }
  return out;
}

const InputShapeSpec* DynamicShapesSpec::input(const std::string& name, size_t position) const {
  if (form == Form::Dict) {
    // A dict spec usually lists the arguments in their order: the entry at the
    // argument's position first, so binding n arguments stays linear.
    if (position < inputs.size() && inputs[position].first == name) return &inputs[position].second;
    for (const auto& [n, in] : inputs)
      if (n == name) return &in;
    return nullptr;
  }
  return position < inputs.size() ? &inputs[position].second : nullptr;
}

std::string DynamicShapesSpec::derived_name(const DimSpec& d) { return linear_text(d.dim, d.coeff, d.offset); }

std::string DynamicShapesSpec::debug_name(const DimSpec& d) {
  if (d.kind == DimSpec::Kind::Named) return d.dim;
  if (d.kind == DimSpec::Kind::Derived) return derived_name(d);
  return "";
}

std::string print_dynamic_shapes(const DynamicShapesSpec& spec) {
  std::ostringstream out;
  std::set<std::string> declared_vars;
  for (const std::string& name : spec.dim_order) {
    const DimDecl& d = spec.dims.at(name);
    const std::string var = variable(spec, name);
    if (!declared_vars.insert(var).second) continue;
    const std::string b = bounds_text(d.min, d.max);
    out << var << " = Dim(" << quoted(d.name) << (b.empty() ? "" : ", " + b) << ")\n";
  }
  out << "dynamic_shapes = ";
  switch (spec.form) {
    case DynamicShapesSpec::Form::Unset: out << "None\n"; break;
    case DynamicShapesSpec::Form::Dict:
      out << "{\n";
      for (const auto& [name, in] : spec.inputs) out << "    " << quoted(name) << ": " << input_text(spec, in) << ",\n";
      out << "}\n";
      break;
    case DynamicShapesSpec::Form::Tuple:
    case DynamicShapesSpec::Form::List: {
      const bool tuple = spec.form == DynamicShapesSpec::Form::Tuple;
      out << (tuple ? "(\n" : "[\n");
      for (const auto& [name, in] : spec.inputs) out << "    " << input_text(spec, in) << ",\n";
      out << (tuple ? ")\n" : "]\n");
      break;
    }
  }
  return out.str();
}

}  // namespace exportlens::symbolic

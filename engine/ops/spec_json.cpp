#include "engine/ops/spec_json.h"

#include <nlohmann/json.hpp>

namespace exportlens::ops {

namespace {

using Json = nlohmann::ordered_json;
using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;
using symbolic::InputShapeSpec;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw symbolic::SpecError(0, 0, "JSON spec, " + where + ": " + what);
}

const char* kind_text(DimSpec::Kind k) {
  switch (k) {
    case DimSpec::Kind::Unspecified: return "unspecified";
    case DimSpec::Kind::None: return "none";
    case DimSpec::Kind::Static: return "static";
    case DimSpec::Kind::Auto: return "auto";
    case DimSpec::Kind::Dynamic: return "dynamic";
    case DimSpec::Kind::Int: return "int";
    case DimSpec::Kind::Named: return "named";
    case DimSpec::Kind::Derived: return "derived";
  }
  return "none";
}

DimSpec::Kind kind_of(const std::string& s, const std::string& where) {
  for (auto k : {DimSpec::Kind::None, DimSpec::Kind::Static, DimSpec::Kind::Auto, DimSpec::Kind::Dynamic,
                 DimSpec::Kind::Int, DimSpec::Kind::Named, DimSpec::Kind::Derived, DimSpec::Kind::Unspecified})
    if (s == kind_text(k)) return k;
  bad(where, "unknown kind '" + s + "' (expected none, static, auto, dynamic, int, named or derived)");
}

std::string form_text(InputShapeSpec::Form f) {
  switch (f) {
    case InputShapeSpec::Form::None: return "none";
    case InputShapeSpec::Form::Tuple: return "tuple";
    case InputShapeSpec::Form::List: return "list";
    case InputShapeSpec::Form::Dict: return "dict";
  }
  return "none";
}

std::optional<int64_t> optional_int(const Json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (!j[key].is_number_integer()) bad(where + "." + key, "expected an integer");
  return j[key].get<int64_t>();
}

std::string string_at(const Json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_string()) bad(where + "." + key, "expected a string");
  return j[key].get<std::string>();
}

}  // namespace

std::string spec_to_json(const DynamicShapesSpec& spec) {
  Json j;
  switch (spec.form) {
    case DynamicShapesSpec::Form::Unset: j["form"] = "none"; break;
    case DynamicShapesSpec::Form::Dict: j["form"] = "dict"; break;
    case DynamicShapesSpec::Form::Tuple: j["form"] = "tuple"; break;
    case DynamicShapesSpec::Form::List: j["form"] = "list"; break;
  }
  Json dims = Json::object();
  for (const std::string& n : spec.dim_order) {
    const auto& d = spec.dims.at(n);
    Json o = Json::object();
    if (d.min) o["min"] = *d.min;
    if (d.max) o["max"] = *d.max;
    if (auto v = spec.variable_of.find(n); v != spec.variable_of.end() && v->second != n) o["variable"] = v->second;
    dims[n] = o;
  }
  j["dims"] = dims;
  Json inputs = Json::array();
  for (const auto& [name, in] : spec.inputs) {
    Json i = {{"name", name}, {"form", form_text(in.form)}};
    Json ds = Json::array();
    for (const auto& [index, d] : in.dims) {
      Json o = {{"index", index}, {"kind", kind_text(d.kind)}};
      if (d.min) o["min"] = *d.min;
      if (d.max) o["max"] = *d.max;
      if (d.kind == DimSpec::Kind::Int) o["value"] = d.value;
      if (!d.dim.empty()) o["dim"] = d.dim;
      if (d.kind == DimSpec::Kind::Derived) {
        o["coeff"] = d.coeff;
        o["offset"] = d.offset;
      }
      ds.push_back(o);
    }
    i["dims"] = ds;
    inputs.push_back(i);
  }
  j["inputs"] = inputs;
  return j.dump(2) + "\n";
}

DynamicShapesSpec spec_from_json(std::string_view text) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const std::exception& e) {
    bad("text", e.what());
  }
  if (!j.is_object()) bad("top level", "expected an object");
  DynamicShapesSpec spec;
  const std::string form = j.value("form", "dict");
  if (form == "none") spec.form = DynamicShapesSpec::Form::Unset;
  else if (form == "dict") spec.form = DynamicShapesSpec::Form::Dict;
  else if (form == "tuple") spec.form = DynamicShapesSpec::Form::Tuple;
  else if (form == "list") spec.form = DynamicShapesSpec::Form::List;
  else bad("form", "expected none, dict, tuple or list");
  if (j.contains("dims")) {
    if (!j["dims"].is_object()) bad("dims", "expected an object of Dim name -> {min, max}");
    for (const auto& [name, d] : j["dims"].items()) {
      const std::string where = "dims." + name;
      symbolic::DimDecl decl{name, optional_int(d, "min", where), optional_int(d, "max", where)};
      spec.dims.emplace(name, decl);
      spec.dim_order.push_back(name);
      spec.variable_of[name] = d.contains("variable") && d["variable"].is_string() ? d["variable"].get<std::string>() : name;
    }
  }
  if (j.contains("inputs") && !j["inputs"].is_array()) bad("inputs", "expected an array");
  const Json inputs = j.value("inputs", Json::array());
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Json& i = inputs[k];
    const std::string where = "inputs[" + std::to_string(k) + "]";
    InputShapeSpec in;
    const std::string f = i.value("form", "tuple");
    if (f == "none") in.form = InputShapeSpec::Form::None;
    else if (f == "tuple") in.form = InputShapeSpec::Form::Tuple;
    else if (f == "list") in.form = InputShapeSpec::Form::List;
    else if (f == "dict") in.form = InputShapeSpec::Form::Dict;
    else bad(where + ".form", "expected none, tuple, list or dict");
    const Json dims = i.value("dims", Json::array());
    for (size_t n = 0; n < dims.size(); ++n) {
      const Json& d = dims[n];
      const std::string dw = where + ".dims[" + std::to_string(n) + "]";
      DimSpec s;
      s.kind = kind_of(d.value("kind", "none"), dw + ".kind");
      s.min = optional_int(d, "min", dw);
      s.max = optional_int(d, "max", dw);
      if (s.kind == DimSpec::Kind::Int) s.value = optional_int(d, "value", dw).value_or(0);
      if (s.kind == DimSpec::Kind::Named || s.kind == DimSpec::Kind::Derived) {
        s.dim = string_at(d, "dim", dw);
        if (!spec.dims.count(s.dim)) bad(dw + ".dim", "'" + s.dim + "' is not declared in dims");
        s.min.reset();
        s.max.reset();
      }
      if (s.kind == DimSpec::Kind::Derived) {
        s.coeff = optional_int(d, "coeff", dw).value_or(1);
        s.offset = optional_int(d, "offset", dw).value_or(0);
        if (s.coeff <= 0) bad(dw + ".coeff", "expected a positive integer");
      }
      in.dims.emplace_back(optional_int(d, "index", dw).value_or(int64_t(n)), s);
    }
    spec.inputs.emplace_back(i.value("name", ""), in);
  }
  return spec;
}

}  // namespace exportlens::ops

#include "engine/ops/spec_json.h"

#include <limits>

#include <nlohmann/json.hpp>

#include "engine/symbolic/nesting_guard.h"

namespace exportlens::ops {

namespace {

using Json = nlohmann::ordered_json;
using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;
using symbolic::InputShapeSpec;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw symbolic::SpecError(0, 0, "JSON spec" + (where.empty() ? "" : ", " + where) + ": " + what);
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

// The JSON spec is read by nlohmann's parser (iterative) with nesting refused
// as it is read, so the tree is never deeper than a spec can be; every field
// is then read through these accessors, which check its type first: no
// library exception reaches the user, and each error names the JSON path.
const char* type_text(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number with a fraction or exponent";
    default: return "not a JSON value";
  }
}

// "inputs[0].dims" + "kind": the JSON path of a field.
std::string member(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

// The field `key` of object `j`, or nullptr when absent (or null).
const Json* field(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

const Json& expect(const Json& j, Json::value_t type, const char* expected, const std::string& where) {
  const bool ok = j.type() == type || (type == Json::value_t::number_integer && j.is_number_unsigned());
  if (!ok) bad(where, std::string("expected ") + expected + ", got " + type_text(j));
  return j;
}

std::optional<int64_t> optional_int(const Json& j, const char* key, const std::string& where) {
  const Json* f = field(j, key);
  if (!f) return std::nullopt;
  expect(*f, Json::value_t::number_integer, "an integer", member(where, key));
  if (f->is_number_unsigned() && f->get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
    bad(member(where, key), "integer out of the int64 range");
  return f->get<int64_t>();
}

std::string string_or(const Json& j, const char* key, const std::string& fallback, const std::string& where) {
  const Json* f = field(j, key);
  return f ? expect(*f, Json::value_t::string, "a string", member(where, key)).get<std::string>() : fallback;
}

const Json& object_at(const Json& j, const std::string& where) {
  return expect(j, Json::value_t::object, "an object", where);
}

// An optional array field: empty when absent.
const Json& array_or_empty(const Json& j, const char* key, const std::string& where) {
  static const Json kEmpty = Json::array();
  const Json* f = field(j, key);
  return f ? expect(*f, Json::value_t::array, "an array", member(where, key)) : kEmpty;
}

// nlohmann's errors say "[json.exception.parse_error.101] parse error at line
// 1, column 2: <reason>; last read: '<bytes>'" or "[json.exception.
// out_of_range.406] <reason>": the reason is kept, the place is ours, and the
// bytes (maybe not UTF-8) are left out.
std::string reason_of(const std::string& what) {
  std::string reason = what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 1);
  if (const auto place = reason.find("parse error"); place != std::string::npos && reason.find(": ", place) != std::string::npos)
    reason = reason.substr(reason.find(": ", place) + 2);
  reason = reason.substr(0, reason.find("; last read"));
  const auto start = reason.find_first_not_of(' ');
  return "not valid JSON: " + (start == std::string::npos ? std::string() : reason.substr(start));
}

Json parse(std::string_view text) {
  const auto bounded = [](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= symbolic::kMaxParseNesting)
      bad("", "nested more than " + std::to_string(symbolic::kMaxParseNesting) + " levels deep");
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), bounded);
  } catch (const Json::parse_error& e) {
    int line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw symbolic::SpecError(line, column, "JSON spec " + reason_of(e.what()));
  } catch (const Json::exception& e) {  // a number past double's range (out_of_range.406): no place given
    bad("", reason_of(e.what()));
  }
}

Json dim_json(const DimSpec& d) {
  Json o = {{"kind", kind_text(d.kind)}};
  if (d.min) o["min"] = *d.min;
  if (d.max) o["max"] = *d.max;
  if (d.kind == DimSpec::Kind::Int) o["value"] = d.value;
  if (!d.dim.empty()) o["dim"] = d.dim;
  if (d.kind == DimSpec::Kind::Derived) {
    o["coeff"] = d.coeff;
    o["offset"] = d.offset;
  }
  return o;
}

/// [{label: key, ...to_json(value)}] for the (key, value) pairs of `entries`, in order.
template <class Entries, class ToJson>
Json labelled_array(const char* label, const Entries& entries, ToJson to_json) {
  Json out = Json::array();
  for (const auto& [key, value] : entries) {
    Json o = {{label, key}};
    o.update(to_json(value));
    out.push_back(std::move(o));
  }
  return out;
}

// One input's spec: {"form", "dims"} for a tensor, {"form", "items"} for a
// container (each item an input object, with "key" in a dict), {"scalar"}
// for a bare dimension value.
Json input_json(const InputShapeSpec& in) {
  Json i = {{"form", form_text(in.form)}};
  if (in.scalar) {
    i["scalar"] = dim_json(*in.scalar);
    return i;
  }
  if (in.container) {
    Json items = Json::array();
    for (const auto& [key, item] : in.items) {
      Json o = Json::object();
      if (in.form == InputShapeSpec::Form::Dict) o["key"] = key;
      o.update(input_json(item));
      items.push_back(o);
    }
    i["items"] = items;
    return i;
  }
  i["dims"] = labelled_array("index", in.dims, dim_json);
  return i;
}

DimSpec dim_from_json(const Json& d, const DynamicShapesSpec& spec, const std::string& dw) {
  DimSpec s;
  s.kind = kind_of(string_or(d, "kind", "none", dw), dw + ".kind");
  s.min = optional_int(d, "min", dw);
  s.max = optional_int(d, "max", dw);
  if (s.kind == DimSpec::Kind::Int) s.value = optional_int(d, "value", dw).value_or(0);
  if (s.kind == DimSpec::Kind::Named || s.kind == DimSpec::Kind::Derived) {
    s.dim = string_or(d, "dim", "", dw);
    if (s.dim.empty()) bad(dw + ".dim", "expected a string");
    if (!spec.dims.count(s.dim)) bad(dw + ".dim", "'" + s.dim + "' is not declared in dims");
    s.min.reset();
    s.max.reset();
  }
  if (s.kind == DimSpec::Kind::Derived) {
    s.coeff = optional_int(d, "coeff", dw).value_or(1);
    s.offset = optional_int(d, "offset", dw).value_or(0);
    if (s.coeff <= 0) bad(dw + ".coeff", "expected a positive integer");
  }
  return s;
}

InputShapeSpec input_from_json(const Json& i, const DynamicShapesSpec& spec, const std::string& where) {
  object_at(i, where);
  InputShapeSpec in;
  const std::string f = string_or(i, "form", "tuple", where);
  if (f == "none") in.form = InputShapeSpec::Form::None;
  else if (f == "tuple") in.form = InputShapeSpec::Form::Tuple;
  else if (f == "list") in.form = InputShapeSpec::Form::List;
  else if (f == "dict") in.form = InputShapeSpec::Form::Dict;
  else bad(where + ".form", "expected none, tuple, list or dict");
  if (const Json* scalar = field(i, "scalar")) {
    const std::string sw = member(where, "scalar");
    in.form = InputShapeSpec::Form::None;
    in.scalar = dim_from_json(object_at(*scalar, sw), spec, sw);
    return in;
  }
  if (const Json* items = field(i, "items")) {
    const std::string iw = member(where, "items");
    expect(*items, Json::value_t::array, "an array", iw);
    if (field(i, "dims")) bad(where, "a spec has either dims (a tensor's) or items (a container's), not both");
    if (in.form == InputShapeSpec::Form::None) bad(where + ".form", "a container's form is tuple, list or dict");
    in.container = true;
    for (size_t n = 0; n < items->size(); ++n) {
      const std::string w = iw + "[" + std::to_string(n) + "]";
      const Json& item = object_at((*items)[n], w);
      std::string key;
      if (in.form == InputShapeSpec::Form::Dict) {
        key = string_or(item, "key", "", w);
        if (!field(item, "key")) bad(w + ".key", "expected a string (the dict's key)");
      }
      in.items.emplace_back(key, input_from_json(item, spec, w));
    }
    return in;
  }
  const Json& dims = array_or_empty(i, "dims", where);
  for (size_t n = 0; n < dims.size(); ++n) {
    const std::string dw = where + ".dims[" + std::to_string(n) + "]";
    const Json& d = object_at(dims[n], dw);
    in.dims.emplace_back(optional_int(d, "index", dw).value_or(int64_t(n)), dim_from_json(d, spec, dw));
  }
  return in;
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
  j["inputs"] = labelled_array("name", spec.inputs, input_json);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

DynamicShapesSpec spec_from_json(std::string_view text) {
  const Json j = parse(text);
  object_at(j, "top level");
  DynamicShapesSpec spec;
  const std::string form = string_or(j, "form", "dict", "");
  if (form == "none") spec.form = DynamicShapesSpec::Form::Unset;
  else if (form == "dict") spec.form = DynamicShapesSpec::Form::Dict;
  else if (form == "tuple") spec.form = DynamicShapesSpec::Form::Tuple;
  else if (form == "list") spec.form = DynamicShapesSpec::Form::List;
  else bad("form", "expected none, dict, tuple or list");
  if (const Json* dims = field(j, "dims")) {
    if (!dims->is_object()) bad("dims", "expected an object of Dim name -> {min, max}, got " + std::string(type_text(*dims)));
    for (const auto& [name, d] : dims->items()) {
      const std::string where = "dims." + name;
      object_at(d, where);
      symbolic::DimDecl decl{name, optional_int(d, "min", where), optional_int(d, "max", where)};
      spec.dims.emplace(name, decl);
      spec.dim_order.push_back(name);
      spec.variable_of[name] = string_or(d, "variable", name, where);
    }
  }
  const Json& inputs = array_or_empty(j, "inputs", "");
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::string where = "inputs[" + std::to_string(k) + "]";
    const Json& i = object_at(inputs[k], where);
    spec.inputs.emplace_back(string_or(i, "name", "", where), input_from_json(i, spec, where));
  }
  return spec;
}

}  // namespace exportlens::ops

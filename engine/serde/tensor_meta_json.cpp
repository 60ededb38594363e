#include "engine/serde/tensor_meta_json.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace exportlens::serde {

using json = nlohmann::ordered_json;

json sym_int_json(const ir::SymInt& s) {
  if (const auto v = s.expr.as_integer()) return json{{"as_int", *v}};
  json e = json::object();
  e["expr_str"] = s.expr.srepr();
  e["hint"] = s.hint ? json{{"as_int", *s.hint}} : json(nullptr);
  return json{{"as_expr", std::move(e)}};
}

json sym_bool_json(const ir::SymBool& b) {
  if (!b.float_srepr.empty()) return json{{"as_expr", {{"expr_str", b.float_srepr}, {"hint", nullptr}}}};
  if (b.expr.kind() == symbolic::Expr::Kind::True || b.expr.kind() == symbolic::Expr::Kind::False)
    return json{{"as_bool", b.expr.kind() == symbolic::Expr::Kind::True}};
  json e = json::object();
  e["expr_str"] = b.expr.srepr();
  e["hint"] = nullptr;  // torch writes no hint for a SymBool
  return json{{"as_expr", std::move(e)}};
}

namespace {
// A constant float (the tracer spells one as its digits) is written as_float.
std::optional<double> constant_float(const ir::SymFloat& f) {
  if (f.expr.empty()) return f.hint.value_or(0.0);
  char* end = nullptr;
  const double d = std::strtod(f.expr.c_str(), &end);
  if (end && *end == '\0') return d;
  return std::nullopt;
}
}  // namespace

json sym_float_json(const ir::SymFloat& f) {
  if (const auto constant = constant_float(f)) {
    const double d = *constant;
    if (std::isnan(d)) return json{{"as_float", "NaN"}};
    if (std::isinf(d)) return json{{"as_float", d > 0 ? "Infinity" : "-Infinity"}};
    return json{{"as_float", d}};
  }
  json e = json::object();
  e["expr_str"] = f.srepr.empty() ? f.expr : f.srepr;
  e["hint"] = f.hint ? json{{"as_float", *f.hint}} : json(nullptr);
  return json{{"as_expr", std::move(e)}};
}

json tensor_meta_json(const ir::TensorMeta& m) {
  json j = json::object();
  j["dtype"] = static_cast<int>(m.dtype);
  j["sizes"] = json::array();
  for (const auto& s : m.sizes) j["sizes"].push_back(sym_int_json(s));
  j["requires_grad"] = m.requires_grad;
  json device = json::object();
  device["type"] = m.device.type;
  device["index"] = m.device.index ? json(*m.device.index) : json(nullptr);
  j["device"] = std::move(device);
  j["strides"] = json::array();
  for (const auto& s : m.strides) j["strides"].push_back(sym_int_json(s));
  j["storage_offset"] = sym_int_json(m.storage_offset);
  j["layout"] = static_cast<int>(m.layout);
  return j;
}

}  // namespace exportlens::serde

#pragma once
// JSON read leniently, as the suites read torch's records under QtTest: a
// missing key, or a value of another kind, reads as the kind's empty value
// (null, "", 0, false, [], {}), so a record that lacks a field shows as a
// COMPARE failure on the value, not as an exception. Where a field must be
// there, read it with nlohmann's `.at()` instead.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace exportlens::unit {

using json = nlohmann::json;

/// `object[key]`, or null.
inline const json& field(const json& object, std::string_view key) {
  static const json none;
  if (!object.is_object()) return none;
  const auto it = object.find(key);
  return it == object.end() ? none : *it;
}

inline std::string as_string(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }
inline double as_double(const json& v) { return v.is_number() ? v.get<double>() : 0.0; }
inline int64_t as_int(const json& v) { return v.is_number() ? int64_t(v.get<double>()) : 0; }
inline bool as_bool(const json& v) { return v.is_boolean() && v.get<bool>(); }
inline json as_array(const json& v) { return v.is_array() ? v : json::array(); }
inline json as_object(const json& v) { return v.is_object() ? v : json::object(); }

/// The strings of an array (other elements read as "").
inline std::vector<std::string> as_strings(const json& v) {
  std::vector<std::string> out;
  for (const auto& e : as_array(v)) out.push_back(as_string(e));
  return out;
}

}  // namespace exportlens::unit

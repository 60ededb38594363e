#pragma once
// JSON text as the Python value json.loads() makes of it, for printing it the
// way torch does (node.meta["custom"] is stored as JSON in a .pt2 and printed
// as a Python dict in "# Annotation: {...}" comments).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exportlens::ir {

struct PyValue {
  enum class Kind { None, Bool, Int, Float, Str, List, Dict };
  Kind kind = Kind::None;
  std::string text;  // Bool/Int: the literal; Float: repr; Str: the UTF-8 string
  std::vector<PyValue> items;                           // List
  std::vector<std::pair<std::string, PyValue>> fields;  // Dict, in document order

  /// repr(value)
  std::string repr() const;
  /// str(value): the string itself for Str, repr() otherwise.
  std::string str() const;
};

/// json.loads(text); nullopt if the text is not JSON.
std::optional<PyValue> parse_json_as_python(std::string_view text);

/// Number of code points in UTF-8 text (Python's len() of a str).
size_t utf8_length(std::string_view utf8);
/// The first `count` code points of UTF-8 text (Python's s[:count]).
std::string utf8_prefix(std::string_view utf8, size_t count);

}  // namespace exportlens::ir

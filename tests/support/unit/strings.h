#pragma once
// The string helpers the engine suites used QString for.
#include <string>
#include <string_view>
#include <vector>

namespace exportlens::unit {

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

/// `text` cut at each `sep`; empty pieces kept unless `skip_empty`.
inline std::vector<std::string> split(std::string_view text, char sep, bool skip_empty = false) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != sep) continue;
    if (!skip_empty || i > start) out.emplace_back(text.substr(start, i - start));
    start = i + 1;
  }
  return out;
}

inline std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) (out += i ? sep : "") += parts[i];
  return out;
}

/// `text` without leading and trailing white space.
inline std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n\v\f");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t\r\n\v\f") - first + 1));
}

}  // namespace exportlens::unit

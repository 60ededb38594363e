#include "engine/matching/module_path.h"

#include <algorithm>
#include <cctype>

namespace exportlens::matching {

bool is_index(std::string_view part) {
  return !part.empty() &&
         std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

PathPattern path_pattern(const std::string& path) {
  PathPattern out;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t dot = std::min(path.find('.', start), path.size());
    const std::string_view part(path.data() + start, dot - start);
    out.indexed = is_index(part);
    if (!out.pattern.empty()) out.pattern += '.';
    out.pattern += out.indexed ? std::string_view("*") : part;
    start = dot + 1;
  }
  return out;
}

std::string path_below(const std::string& path, const std::string& outer) {
  if (path == outer) return "";
  if (outer.empty()) return path;
  if (path.size() > outer.size() && path.compare(0, outer.size(), outer) == 0 && path[outer.size()] == '.')
    return path.substr(outer.size() + 1);
  return path;
}

}  // namespace exportlens::matching

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

}  // namespace exportlens::matching

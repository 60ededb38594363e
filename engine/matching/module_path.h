#pragma once
// Module paths read for what they say about a module's place: the entries
// of a ModuleList or Sequential end in an index (`blocks.3`), and with the
// indices left out (`stages.*.blocks.*`) the paths of one stack's instances
// are the same. Shared by stack folding (structure) and scope matching.
#include <string>
#include <string_view>

namespace exportlens::matching {

/// A path component that is an index: "3".
bool is_index(std::string_view part);

struct PathPattern {
  std::string pattern;  // "stages.*.blocks.*"
  bool indexed = false;  // the last part was an index
};
/// "stages.1.blocks.3" -> {"stages.*.blocks.*", true}.
PathPattern path_pattern(const std::string& path);

/// A path below an outer one: "blocks.3.mlp" below "blocks.3" is "mlp";
/// the outer path itself is ""; a path not below it stays whole.
std::string path_below(const std::string& path, const std::string& outer);

}  // namespace exportlens::matching

#pragma once
// The JSON entries of an archive, parsed once into a flat, read-only tree.
// A .pt2's program JSON is tens of megabytes for a large graph: one pass, no
// recursion, one allocation per thousand values instead of one per value, and
// strings left in the text unless they hold escapes. The nesting depth is
// bounded while parsing (ReadLimits::max_nesting), so a file of 10^5 brackets
// is refused, not followed by the parser or by any recursive reader after it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/serde/read_limits.h"

namespace exportlens::serde {

enum class JsonType : uint8_t { Null, False, True, Integer, Real, String, Array, Object };

/// One parsed document. Values are numbered in document order (0 is the
/// root); an object's members are its key (a String) followed by its value.
/// The text must outlive the document: strings without escapes point into it.
class JsonDocument {
 public:
  using Index = uint32_t;

  /// Parses `text`; throws Pt2Error naming `label` and the byte for invalid
  /// JSON, or for nesting over limits.max_nesting.
  static JsonDocument parse(std::string_view text, const std::string& label, const ReadLimits& limits);

  JsonType type(Index i) const { return values_[i].type; }
  /// Elements of an array, members of an object.
  uint32_t count(Index i) const { return values_[i].count; }
  /// The value after `i` and everything inside it (its next sibling, if any).
  Index skip(Index i) const { return values_[i].next; }
  Index parent(Index i) const { return values_[i].parent; }
  std::string_view string(Index i) const;
  int64_t integer(Index i) const { return values_[i].integer; }
  double real(Index i) const { return values_[i].real; }

  /// The value of `object`'s member `key`, or kNone (first match; objects here are small).
  Index find(Index object, std::string_view key) const;
  /// "graph_module.graph.nodes[3].inputs[1]": where `i` is, from the root (empty for the root).
  std::string path(Index i) const;

  static constexpr Index kNone = UINT32_MAX;

 private:
  struct Value {
    JsonType type = JsonType::Null;
    uint32_t count = 0;   // containers: elements or members; strings: length in bytes
    Index next = 0;       // index after this value's subtree
    Index parent = kNone;
    union {
      int64_t integer = 0;
      double real;
      uint64_t offset;  // strings: into the text, or (kInPool bit) into pool_
    };
  };
  static constexpr uint64_t kInPool = uint64_t(1) << 63;

  friend class JsonParser;
  std::string_view text_;
  std::string pool_;  // strings that held escapes, decoded
  std::vector<Value> values_;
};

/// The deepest nesting of arrays/objects in `text` (strings skipped).
int json_nesting_depth(std::string_view text);

}  // namespace exportlens::serde

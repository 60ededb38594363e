#pragma once
// Symbol names as torch 2.13's ShapeEnv gives them, so that ExportLens and
// torch name the same dimension alike: a backed symbol for source S is
// s<N> with N = sha256(S) % 100, probing upward past ids already taken;
// unbacked symbols are u0, u1, ... in creation order.
#include <set>
#include <string>
#include <string_view>

namespace exportlens::symbolic {

/// Lower-case hex SHA-256 of the bytes of `text`.
std::string sha256_hex(std::string_view text);

class SymbolNamer {
 public:
  /// "s77" for "L['x'].size()[0]" (the first time).
  std::string backed(std::string_view source_name);
  /// "u0", "u1", ...
  std::string unbacked();

 private:
  std::set<int> used_ids_;
  int next_unbacked_ = 0;
};

}  // namespace exportlens::symbolic

#pragma once
// Well-formed UTF-8, as Python's decoder and JSON accept it: no overlong
// forms, no surrogates, nothing past U+10FFFF. The readers of files and specs
// refuse other bytes in their strings, so no ill-formed text reaches a
// message, a printed program or a JSON report.
#include <cstddef>
#include <string_view>

namespace exportlens::symbolic {

/// Length (1 to 4) of the well-formed UTF-8 sequence starting at s[pos], or 0
/// when the bytes there are not one.
inline size_t utf8_sequence_length(std::string_view s, size_t pos) {
  const auto b = [&](size_t k) { return pos + k < s.size() ? static_cast<unsigned char>(s[pos + k]) : 0u; };
  const auto cont = [&](size_t k) { return (b(k) & 0xC0) == 0x80; };
  const unsigned c = b(0);
  if (pos >= s.size()) return 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return b(1) >= 0xA0 && b(1) <= 0xBF && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return b(1) >= 0x80 && b(1) <= 0x9F && cont(2) ? 3 : 0;
  if (c == 0xF0) return b(1) >= 0x90 && b(1) <= 0xBF && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return b(1) >= 0x80 && b(1) <= 0x8F && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/// Offset of the first byte of `s` that does not start a well-formed UTF-8
/// sequence, or std::string_view::npos when all of `s` is well formed.
inline size_t invalid_utf8_at(std::string_view s) {
  for (size_t pos = 0; pos < s.size();) {
    const size_t n = utf8_sequence_length(s, pos);
    if (n == 0) return pos;
    pos += n;
  }
  return std::string_view::npos;
}

}  // namespace exportlens::symbolic

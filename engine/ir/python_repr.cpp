#include "engine/ir/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace exportlens::ir {

namespace {

/// Python's float repr switches to exponent form outside 1e-4 <= |x| < 1e16
/// (CPython's format_float_short, mode 'r': decpt <= -4 or decpt > 16).
std::string format_digits(bool negative, const std::string& digits, int decimal_exponent) {
  const int decpt = decimal_exponent + 1;  // digits d0.d1d2... times 10^(decpt-1)
  const int n = static_cast<int>(digits.size());
  std::string out = negative ? "-" : "";
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (n > 1) out += "." + digits.substr(1);
    char exp[8];
    std::snprintf(exp, sizeof exp, "e%c%02d", decimal_exponent < 0 ? '-' : '+',
                  std::abs(decimal_exponent));
    return out + exp;
  }
  if (decpt <= 0) return out + "0." + std::string(-decpt, '0') + digits;
  if (decpt < n) return out + digits.substr(0, decpt) + "." + digits.substr(decpt);
  return out + digits + std::string(decpt - n, '0') + ".0";
}

/// Code points Python's str.isprintable() rejects, beyond ASCII controls:
/// separators, format characters, surrogates, private use. (Unassigned code
/// points, which Python also escapes, are not tracked.)
bool is_unprintable(char32_t c) {
  if (c < 0x20 || c == 0x7f) return true;
  if (c < 0x7f) return false;
  if (c <= 0xa0 || c == 0xad) return true;
  if ((c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd || c == 0x70f || c == 0x890 ||
      c == 0x891 || c == 0x8e2 || c == 0x1680 || c == 0x180e)
    return true;
  if ((c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
      (c >= 0x205f && c <= 0x206f) || c == 0x3000)
    return true;
  if ((c >= 0xd800 && c <= 0xf8ff) || c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) ||
      c == 0xfffe || c == 0xffff)
    return true;
  if (c >= 0xf0000) return true;  // supplementary private use planes
  return false;
}

/// Decodes one UTF-8 sequence at `i`; returns false (and consumes one byte)
/// on malformed input.
bool decode_utf8(std::string_view s, size_t& i, char32_t& out) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return false;
  }
  char32_t c = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) {
      ++i;
      return false;
    }
    c = (c << 6) | (b & 0x3f);
  }
  i += len;
  out = c;
  return true;
}

void append_escaped(std::string& out, char32_t c) {
  char buf[16];
  if (c <= 0xff) {
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
  } else if (c <= 0xffff) {
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
  } else {
    std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
  }
  out += buf;
}

}  // namespace

std::string py_repr_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // to_chars gives the shortest round-trip digits; only the layout differs.
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string text(buf, end);
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const auto e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (text[i] != '.') digits += text[i];
  return format_digits(negative, digits, std::stoi(text.substr(e + 1)));
}

std::string py_repr_string(std::string_view utf8) {
  const bool has_single = utf8.find('\'') != std::string_view::npos;
  const bool has_double = utf8.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  size_t i = 0;
  while (i < utf8.size()) {
    const size_t start = i;
    char32_t c = 0;
    if (!decode_utf8(utf8, i, c)) {
      append_escaped(out, static_cast<unsigned char>(utf8[start]));
      continue;
    }
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (is_unprintable(c)) {
      append_escaped(out, c);
    } else {
      out.append(utf8.substr(start, i - start));
    }
  }
  out += quote;
  return out;
}

}  // namespace exportlens::ir

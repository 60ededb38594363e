#include "engine/serde/json_document.h"

#include <charconv>
#include <cstring>
#include <limits>

#include "engine/serde/pt2_reader.h"
#include "engine/symbolic/utf8.h"

namespace exportlens::serde {

int json_nesting_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// RFC 8259 JSON, plus the NaN / Infinity / -Infinity literals Python's json
// module writes. Iterative: the open containers are an explicit stack.
class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& label, const ReadLimits& limits, JsonDocument& doc)
      : s_(text), label_(label), limits_(limits), doc_(doc) {}

  void run() {
    if (s_.size() >= JsonDocument::kNone)
      throw Pt2Error(label_ + ": JSON of " + std::to_string(s_.size()) + " bytes is larger than the reader handles (4 GiB)");
    doc_.text_ = s_;
    doc_.values_.reserve(s_.size() / 8 + 16);
    std::vector<JsonDocument::Index> open;  // containers not yet closed
    value(JsonDocument::kNone, open);
    while (!open.empty()) {
      const JsonDocument::Index top = open.back();
      const bool object = doc_.values_[top].type == JsonType::Object;
      if (just_opened_) {  // its first member, without a comma
        just_opened_ = false;
        member(top, object, open);
        continue;
      }
      skip_space();
      const char c = peek();
      if (c == ',') {
        ++pos_;
        member(top, object, open);
      } else if (c == (object ? '}' : ']')) {
        ++pos_;
        doc_.values_[top].next = static_cast<JsonDocument::Index>(doc_.values_.size());
        open.pop_back();
      } else {
        fail(object ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element");
      }
    }
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the JSON document");
  }

 private:
  // One element of `container` (for an object: key, ':', value).
  void member(JsonDocument::Index container, bool object, std::vector<JsonDocument::Index>& open) {
    ++doc_.values_[container].count;
    if (object) {
      skip_space();
      if (peek() != '"') fail("expected a string as the object key");
      string(container);
      skip_space();
      if (peek() != ':') fail("expected ':' after the object key");
      ++pos_;
    }
    value(container, open);
  }

  // A value; a container is opened (run() reads its members) or closed at once if empty.
  void value(JsonDocument::Index parent, std::vector<JsonDocument::Index>& open) {
    skip_space();
    const char c = peek();
    if (c == '{' || c == '[') {
      if (static_cast<int>(open.size()) >= limits_.max_nesting)
        throw Pt2Error(label_ + ": JSON nested " + std::to_string(json_nesting_depth(s_)) +
                       " levels deep, over the limit of " + std::to_string(limits_.max_nesting) +
                       " (raise it with --limit nesting=...)");
      ++pos_;
      const bool object = c == '{';
      const auto index = add(object ? JsonType::Object : JsonType::Array, parent);
      skip_space();
      if (peek() == (object ? '}' : ']')) {
        ++pos_;
        doc_.values_[index].next = index + 1;
        return;
      }
      open.push_back(index);
      just_opened_ = true;
      return;
    }
    if (c == '"') return string(parent);
    if (literal("-Infinity")) return real(-std::numeric_limits<double>::infinity(), parent);
    if (c == '-' || (c >= '0' && c <= '9')) return number(parent);
    if (literal("true")) return scalar(JsonType::True, parent);
    if (literal("false")) return scalar(JsonType::False, parent);
    if (literal("null")) return scalar(JsonType::Null, parent);
    if (literal("NaN")) return real(std::numeric_limits<double>::quiet_NaN(), parent);
    if (literal("Infinity")) return real(std::numeric_limits<double>::infinity(), parent);
    if (pos_ >= s_.size()) fail("unexpected end of the text, expected a value");
    fail(std::string("expected a value, found '") + printable(c) + "'");
  }

  JsonDocument::Index add(JsonType type, JsonDocument::Index parent) {
    const auto index = static_cast<JsonDocument::Index>(doc_.values_.size());
    auto& v = doc_.values_.emplace_back();
    v.type = type;
    v.parent = parent;
    v.next = index + 1;
    return index;
  }
  void scalar(JsonType type, JsonDocument::Index parent) { add(type, parent); }
  void real(double d, JsonDocument::Index parent) { doc_.values_[add(JsonType::Real, parent)].real = d; }

  bool literal(std::string_view word) {
    if (s_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }

  void number(JsonDocument::Index parent) {
    const size_t start = pos_;
    bool integral = true;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      fail("invalid number");
    }
    if (peek() == '.') {
      ++pos_;
      integral = false;
      if (!digits()) fail("invalid number: no digits after the decimal point");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      integral = false;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) fail("invalid number: no digits in the exponent");
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + pos_;
    if (integral) {
      int64_t i = 0;
      if (std::from_chars(first, last, i).ec == std::errc()) {
        doc_.values_[add(JsonType::Integer, parent)].integer = i;
        return;
      }  // beyond int64: kept as a real, which integer() refuses
    }
    double d = 0;
    const auto r = std::from_chars(first, last, d);
    if (r.ec == std::errc::result_out_of_range) {
      const double sign = *first == '-' ? -1.0 : 1.0;
      d = decimal_exponent(first, last) > 0 ? sign * std::numeric_limits<double>::infinity() : sign * 0.0;
    } else if (r.ec != std::errc()) {
      fail("invalid number");
    }
    real(d, parent);
  }
  // The number as 0.d * 10^k: k (1e400 -> 401, 0.001e-400 -> -402), which says overflow or underflow.
  static int64_t decimal_exponent(const char* p, const char* end) {
    if (*p == '-') ++p;
    int64_t position = 0;
    bool leading = true, after_point = false;
    for (; p != end && *p != 'e' && *p != 'E'; ++p) {
      if (*p == '.') {
        after_point = true;
      } else if (leading && *p == '0') {
        if (after_point) --position;
      } else {
        leading = false;
        if (!after_point) ++position;
      }
    }
    int64_t exponent = 0;
    if (p != end) {
      ++p;
      const bool negative = *p == '-';
      if (*p == '-' || *p == '+') ++p;
      for (; p != end && exponent < (int64_t(1) << 40); ++p) exponent = exponent * 10 + (*p - '0');
      if (negative) exponent = -exponent;
    }
    return position + exponent;
  }
  bool digits() {
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  void string(JsonDocument::Index parent) {
    ++pos_;  // the opening quote
    const size_t start = pos_;
    while (pos_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        const auto index = add(JsonType::String, parent);
        doc_.values_[index].offset = start;
        doc_.values_[index].count = static_cast<uint32_t>(pos_ - start);
        ++pos_;
        return;
      }
      if (c == '\\') return escaped_string(parent, start);
      if (c < 0x20) fail("control character in a string");
      if (c >= 0x80) utf8();
      else ++pos_;
    }
    fail("unterminated string");
  }

  // A string with escapes: decoded into the document's pool.
  void escaped_string(JsonDocument::Index parent, size_t start) {
    std::string& pool = doc_.pool_;
    const size_t out = pool.size();
    pool.append(s_.data() + start, pos_ - start);
    while (pos_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        const auto index = add(JsonType::String, parent);
        doc_.values_[index].offset = out | JsonDocument::kInPool;
        doc_.values_[index].count = static_cast<uint32_t>(pool.size() - out);
        ++pos_;
        return;
      }
      if (c < 0x20) fail("control character in a string");
      if (c >= 0x80) {
        const size_t from = pos_;
        utf8();
        pool.append(s_.data() + from, pos_ - from);
        continue;
      }
      ++pos_;
      if (c != '\\') {
        pool.push_back(static_cast<char>(c));
        continue;
      }
      if (pos_ >= s_.size()) break;
      const char e = s_[pos_++];
      switch (e) {
        case '"': pool.push_back('"'); break;
        case '\\': pool.push_back('\\'); break;
        case '/': pool.push_back('/'); break;
        case 'b': pool.push_back('\b'); break;
        case 'f': pool.push_back('\f'); break;
        case 'n': pool.push_back('\n'); break;
        case 'r': pool.push_back('\r'); break;
        case 't': pool.push_back('\t'); break;
        case 'u': append_utf8(pool, code_point()); break;
        default: --pos_; fail(std::string("invalid escape '\\") + printable(e) + "' in a string");
      }
    }
    fail("unterminated string");
  }

  // After "\u": four hex digits, or a surrogate pair "\uD83D\uDE00".
  uint32_t code_point() {
    uint32_t cp = hex4();
    if (cp >= 0xDC00 && cp <= 0xDFFF) fail("lone low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (!literal("\\u")) fail("high surrogate without its low surrogate in a \\u escape");
      const uint32_t low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) fail("high surrogate without its low surrogate in a \\u escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }
  uint32_t hex4() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k, ++pos_) {
      const char h = peek();
      v <<= 4;
      if (h >= '0' && h <= '9') v |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f') v |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= uint32_t(h - 'A' + 10);
      else fail("expected four hex digits after \\u");
    }
    return v;
  }
  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // One UTF-8 sequence starting at pos_ (a byte >= 0x80): well-formed, shortest
  // form, no surrogates, at most U+10FFFF.
  void utf8() {
    const size_t len = symbolic::utf8_sequence_length(s_, pos_);
    if (len == 0) fail("invalid UTF-8 in a string");
    pos_ += len;
  }

  void skip_space() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++pos_;
    }
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  static std::string printable(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) return std::string(1, c);
    static const char* hex = "0123456789abcdef";
    return std::string("\\x") + hex[u >> 4] + hex[u & 15];
  }

  [[noreturn]] void fail(const std::string& what) const {
    if (pos_ >= s_.size() && what.find("end of the text") == std::string::npos)
      throw Pt2Error(label_ + ": invalid JSON at byte " + std::to_string(s_.size()) + ": unexpected end of the text (" +
                     what + ")");
    throw Pt2Error(label_ + ": invalid JSON at byte " + std::to_string(pos_) + ": " + what);
  }

  std::string_view s_;
  size_t pos_ = 0;
  bool just_opened_ = false;  // value() opened a container whose first member is next
  const std::string& label_;
  const ReadLimits& limits_;
  JsonDocument& doc_;
};

JsonDocument JsonDocument::parse(std::string_view text, const std::string& label, const ReadLimits& limits) {
  JsonDocument doc;
  JsonParser(text, label, limits, doc).run();
  return doc;
}

std::string_view JsonDocument::string(Index i) const {
  const Value& v = values_[i];
  if (v.offset & kInPool) return std::string_view(pool_).substr(v.offset & ~kInPool, v.count);
  return text_.substr(v.offset, v.count);
}

JsonDocument::Index JsonDocument::find(Index object, std::string_view key) const {
  Index k = object + 1;
  for (uint32_t m = 0; m < values_[object].count; ++m) {
    if (string(k) == key) return k + 1;
    k = values_[k + 1].next;
  }
  return kNone;
}

std::string JsonDocument::path(Index i) const {
  std::vector<std::string> parts;
  for (Index at = i; values_[at].parent != kNone; at = values_[at].parent) {
    const Index p = values_[at].parent;
    if (values_[p].type == JsonType::Object) {
      parts.push_back("." + std::string(string(at - 1)));  // a member's key comes just before its value
    } else {
      size_t position = 0;
      for (Index e = p + 1; e != at; e = values_[e].next) ++position;
      parts.push_back("[" + std::to_string(position) + "]");
    }
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += *it;
  return out;
}

}  // namespace exportlens::serde

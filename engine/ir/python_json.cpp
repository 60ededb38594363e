#include "engine/ir/python_json.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/ir/python_repr.h"

namespace exportlens::ir {

namespace {

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xc0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xe0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  }
}

/// A recursive-descent reader of the JSON Python's json module accepts
/// (including NaN / Infinity / -Infinity).
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : s_(text) {}

  std::optional<PyValue> document() {
    auto v = value();
    skip_ws();
    if (!v || pos_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    constexpr std::string_view ws = " \t\n\r";
    while (pos_ < s_.size() && ws.find(s_[pos_]) != std::string_view::npos) ++pos_;
  }
  bool eat(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  std::optional<PyValue> value() {
    skip_ws();
    if (pos_ >= s_.size()) return std::nullopt;
    PyValue v;
    const char c = s_[pos_];
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') {
      auto str = string();
      if (!str) return std::nullopt;
      v.kind = PyValue::Kind::Str;
      v.text = std::move(*str);
      return v;
    }
    if (eat("null")) return v;
    for (const auto& [word, literal] : {std::pair{"true", "True"}, std::pair{"false", "False"}}) {
      if (eat(word)) {
        v.kind = PyValue::Kind::Bool;
        v.text = literal;
        return v;
      }
    }
    if (eat("NaN")) return special_float(std::numeric_limits<double>::quiet_NaN());
    if (eat("Infinity")) return special_float(std::numeric_limits<double>::infinity());
    if (eat("-Infinity")) return special_float(-std::numeric_limits<double>::infinity());
    return number();
  }

  static PyValue special_float(double d) {
    PyValue v;
    v.kind = PyValue::Kind::Float;
    v.text = py_repr_float(d);
    return v;
  }

  std::optional<PyValue> number() {
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    bool is_float = false;
    size_t digits = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++digits;
      } else if (c == '.' || c == 'e' || c == 'E' || ((c == '+' || c == '-') && is_float)) {
        is_float = true;
      } else {
        break;
      }
      ++pos_;
    }
    if (digits == 0) return std::nullopt;
    std::string literal(s_.substr(start, pos_ - start));
    PyValue v;
    if (is_float) {
      v.kind = PyValue::Kind::Float;
      v.text = py_repr_float(std::strtod(literal.c_str(), nullptr));
    } else {
      v.kind = PyValue::Kind::Int;
      const bool zero = literal.find_first_not_of("-0") == std::string::npos;
      v.text = zero ? "0" : literal;  // Python's int("-0") is 0
    }
    return v;
  }

  std::optional<unsigned> hex4() {
    if (pos_ + 4 > s_.size()) return std::nullopt;
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return std::nullopt;
    }
    return v;
  }

  std::optional<std::string> string() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) return std::nullopt;
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          auto hi = hex4();
          if (!hi) return std::nullopt;
          char32_t cp = *hi;
          if (cp >= 0xd800 && cp < 0xdc00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            auto lo = hex4();
            if (!lo) return std::nullopt;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (*lo - 0xdc00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // The comma-separated items of an array or object after its opening
  // bracket, through `close`; false when `read_item` fails or a separator is missing.
  template <class ReadItem>
  bool items(std::string_view close, ReadItem read_item) {
    ++pos_;
    skip_ws();
    if (eat(close)) return true;
    while (true) {
      if (!read_item()) return false;
      skip_ws();
      if (eat(close)) return true;
      if (!eat(",")) return false;
    }
  }

  std::optional<PyValue> array() {
    PyValue v;
    v.kind = PyValue::Kind::List;
    const bool read = items("]", [&] {
      auto item = value();
      if (item) v.items.push_back(std::move(*item));
      return item.has_value();
    });
    if (!read) return std::nullopt;
    return v;
  }

  std::optional<PyValue> object() {
    PyValue v;
    v.kind = PyValue::Kind::Dict;
    const bool read = items("}", [&] {
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '"') return false;
      auto key = string();
      skip_ws();
      if (!key || !eat(":")) return false;
      auto item = value();
      if (!item) return false;
      // A repeated key keeps its first place and takes the last value, as in a dict.
      bool replaced = false;
      for (auto& [k, existing] : v.fields) {
        if (k == *key) {
          existing = *item;
          replaced = true;
        }
      }
      if (!replaced) v.fields.emplace_back(std::move(*key), std::move(*item));
      return true;
    });
    if (!read) return std::nullopt;
    return v;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::string PyValue::repr() const {
  switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float: return text;
    case Kind::Str: return py_repr_string(text);
    case Kind::List: {
      std::string out = "[";
      for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i].repr();
      return out + "]";
    }
    case Kind::Dict: {
      std::string out = "{";
      for (size_t i = 0; i < fields.size(); ++i)
        out += (i ? ", " : "") + py_repr_string(fields[i].first) + ": " + fields[i].second.repr();
      return out + "}";
    }
  }
  return "";
}

std::string PyValue::str() const { return kind == Kind::Str ? text : repr(); }

std::optional<PyValue> parse_json_as_python(std::string_view text) {
  return JsonReader(text).document();
}

size_t utf8_length(std::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

std::string utf8_prefix(std::string_view utf8, size_t count) {
  size_t seen = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<unsigned char>(utf8[i]) & 0xc0) != 0x80) {
      if (seen == count) return std::string(utf8.substr(0, i));
      ++seen;
    }
  }
  return std::string(utf8);
}

}  // namespace exportlens::ir

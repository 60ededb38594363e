#include "engine/serde/json_document.h"

#include "engine/serde/pt2_reader.h"

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

namespace {

// Python's json writes inf and nan as the bare tokens Infinity, -Infinity and
// NaN (torch 2.5's archives have them); JSON has none, so they become strings,
// which is how later torch writes them.
std::string quote_non_finite(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    for (std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
      if (text.substr(i, token.size()) == token) {
        out += '"';
        out += token;
        out += '"';
        i += token.size() - 1;
        goto next;
      }
    }
    out += c;
  next:;
  }
  return out;
}

bool has_bare_token(std::string_view text) {
  return text.find("Infinity") != std::string_view::npos || text.find("NaN") != std::string_view::npos;
}

}  // namespace

nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& label, const ReadLimits& limits) {
  if (const int depth = json_nesting_depth(text); depth > limits.max_nesting)
    throw Pt2Error(label + ": JSON nested " + std::to_string(depth) + " levels deep, over the limit of " +
                   std::to_string(limits.max_nesting) + " (raise it with --limit nesting=...)");
  try {
    if (has_bare_token(text)) return nlohmann::ordered_json::parse(quote_non_finite(text));
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // e.what() starts with the library's own tag ("[json.exception.parse_error.101] "): keep the explanation.
    std::string why = e.what();
    if (const auto tag = why.find("] "); why.rfind("[json.exception", 0) == 0 && tag != std::string::npos)
      why = why.substr(tag + 2);
    throw Pt2Error(label + ": invalid JSON at byte " + std::to_string(e.byte) + ": " + why);
  }
}

}  // namespace exportlens::serde

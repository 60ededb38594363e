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

nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& label, const ReadLimits& limits) {
  if (const int depth = json_nesting_depth(text); depth > limits.max_nesting)
    throw Pt2Error(label + ": JSON nested " + std::to_string(depth) + " levels deep, over the limit of " +
                   std::to_string(limits.max_nesting) + " (raise it with --limit nesting=...)");
  try {
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

#include "engine/ir/pytree_spec.h"

#include <cstdio>

namespace exportlens::ir {
namespace {

// A JSON string literal (what json.dumps writes: quotes, backslashes and control characters escaped).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

void dump(const PyTreeSpec& s, std::string& out) {
  using K = PyTreeSpec::Kind;
  if (s.kind == K::Leaf) {
    out += R"({"type": null, "context": null, "children_spec": []})";
    return;
  }
  const char* type = s.kind == K::Tuple ? "builtins.tuple" : s.kind == K::List ? "builtins.list" : "builtins.dict";
  std::string context = "null";
  if (s.kind == K::Dict) {  // the keys, as json.dumps writes the list of them
    context = "[";
    for (size_t i = 0; i < s.keys.size(); ++i) context += (i ? ", " : "") + quoted(s.keys[i]);
    context += "]";
  }
  out += "{\"type\": \"" + std::string(type) + "\", \"context\": " + quoted(context) + ", \"children_spec\": [";
  for (size_t i = 0; i < s.children.size(); ++i) {
    if (i) out += ", ";
    dump(s.children[i], out);
  }
  out += "]}";
}

}  // namespace

std::string treespec_dumps(const PyTreeSpec& spec) {
  std::string out = "[1, ";
  dump(spec, out);
  return out + "]";
}

}  // namespace exportlens::ir

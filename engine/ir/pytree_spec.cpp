#include "engine/ir/pytree_spec.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "engine/symbolic/nesting_guard.h"

namespace exportlens::ir {
namespace {

// A JSON string literal (what json.dumps writes: quotes, backslashes and control characters escaped).
std::string json_string(const std::string& s) {
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
  const std::string type = s.kind == K::Custom  ? s.type_name
                           : s.kind == K::Tuple ? "builtins.tuple"
                           : s.kind == K::List  ? "builtins.list"
                                                : "builtins.dict";
  std::string context = s.kind == K::Custom ? s.context : "null";
  if (s.kind == K::Dict) {  // the keys, as json.dumps writes the list of them
    context = "[";
    for (size_t i = 0; i < s.keys.size(); ++i) context += (i ? ", " : "") + json_string(s.keys[i]);
    context += "]";
  }
  out += "{\"type\": " + json_string(type) + ", \"context\": " + json_string(context) + ", \"children_spec\": [";
  for (size_t i = 0; i < s.children.size(); ++i) {
    if (i) out += ", ";
    dump(s.children[i], out);
  }
  out += "]}";
}

using Json = nlohmann::json;

std::optional<PyTreeSpec> load(const Json& j, int depth) {
  using K = PyTreeSpec::Kind;
  if (depth > symbolic::kMaxParseNesting || !j.is_object()) return std::nullopt;
  const auto type = j.find("type"), context = j.find("context"), children = j.find("children_spec");
  if (type == j.end() || children == j.end() || !children->is_array()) return std::nullopt;
  PyTreeSpec s;
  if (type->is_null()) return children->empty() ? std::optional<PyTreeSpec>(s) : std::nullopt;
  if (!type->is_string()) return std::nullopt;
  const std::string t = type->get<std::string>();
  const std::string ctx = context != j.end() && context->is_string() ? context->get<std::string>() : "null";
  if (t == "builtins.tuple") s.kind = K::Tuple;
  else if (t == "builtins.list") s.kind = K::List;
  else if (t == "builtins.dict") s.kind = K::Dict;
  else if (t.rfind("collections.", 0) == 0 || t.rfind("builtins.", 0) == 0) return std::nullopt;  // namedtuple, OrderedDict, ...
  else {
    s.kind = K::Custom;
    s.type_name = t;
    s.context = ctx;
  }
  if (s.kind == K::Dict) {
    const Json keys = Json::parse(ctx, nullptr, false);
    if (!keys.is_array() || keys.size() != children->size()) return std::nullopt;
    for (const Json& k : keys) {
      if (!k.is_string()) return std::nullopt;
      s.keys.push_back(k.get<std::string>());
    }
  }
  for (const Json& c : *children) {
    auto child = load(c, depth + 1);
    if (!child) return std::nullopt;
    s.children.push_back(std::move(*child));
  }
  return s;
}

}  // namespace

std::optional<PyTreeSpec> treespec_loads(std::string_view text) {
  bool too_deep = false;
  const auto bounded = [&too_deep](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= symbolic::kMaxParseNesting)
      too_deep = true;
    return !too_deep;
  };
  const Json j = Json::parse(text.begin(), text.end(), bounded, false);
  if (too_deep || !j.is_array() || j.size() != 2 || j[0] != 1) return std::nullopt;
  return load(j[1], 0);
}

std::vector<std::string> dataclass_fields(const PyTreeSpec& spec) {
  if (spec.kind != PyTreeSpec::Kind::Custom) return {};
  const Json ctx = Json::parse(spec.context, nullptr, false);
  if (!ctx.is_array() || ctx.size() != 2 || !ctx[0].is_array() || ctx[0].size() != spec.children.size()) return {};
  std::vector<std::string> fields;
  for (const Json& f : ctx[0]) {
    if (!f.is_string()) return {};
    fields.push_back(f.get<std::string>());
  }
  return fields;
}

std::string treespec_dumps(const PyTreeSpec& spec) {
  std::string out = "[1, ";
  dump(spec, out);
  return out + "]";
}

}  // namespace exportlens::ir

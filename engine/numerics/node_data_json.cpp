#include "engine/numerics/node_data_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "engine/base/error.h"

namespace exportlens::numerics {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& label, const std::string& where, const std::string& what) {
  throw Error(ErrorKind::Input, {.file = label, .path = where}, what);
}

NodeData read_graph(const json& g, const std::string& label, const std::string& where, const std::string& name) {
  NodeData d;
  d.name = name;
  if (!g.is_object() || !g.contains("results")) fail(label, where, "expected an object with \"results\"");
  const json& results = g.at("results");
  if (!results.is_object()) fail(label, where + ".results", "expected an object of {node: {\"value\": ...}}");
  for (const auto& [node, r] : results.items()) {
    const std::string at = where + ".results." + node;
    if (!r.is_object() || !r.contains("value")) fail(label, at, "expected {\"value\": ...}");
    const json& v = r.at("value");
    if (v.is_number()) d.values[node] = v.get<double>();
    else if (v.is_string()) d.labels[node] = v.get<std::string>();
    else fail(label, at + ".value", "expected a number or a string");
    if (r.contains("bgColor") && r.at("bgColor").is_string()) d.colours[node] = r.at("bgColor").get<std::string>();
  }
  if (g.contains("thresholds") && g.at("thresholds").is_array())
    for (const json& t : g.at("thresholds"))
      if (t.is_object() && t.contains("value") && t.at("value").is_number() && t.contains("bgColor") && t.at("bgColor").is_string())
        d.thresholds.push_back({t.at("value").get<double>(), t.at("bgColor").get<std::string>()});
  if (g.contains("gradient") && g.at("gradient").is_array())
    for (const json& s : g.at("gradient"))
      if (s.is_object() && s.contains("stop") && s.at("stop").is_number() && s.contains("bgColor") && s.at("bgColor").is_string())
        d.gradient.push_back({s.at("stop").get<double>(), s.at("bgColor").get<std::string>()});
  std::sort(d.thresholds.begin(), d.thresholds.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  std::sort(d.gradient.begin(), d.gradient.end(), [](const auto& a, const auto& b) { return a.stop < b.stop; });
  return d;
}

// "#rrggbb" mixed between two hex colours; other spellings are not mixed (the nearer stop wins).
std::string mix(const std::string& a, const std::string& b, double t) {
  unsigned ra, ga, ba, rb, gb, bb;
  if (a.size() != 7 || b.size() != 7 || std::sscanf(a.c_str(), "#%02x%02x%02x", &ra, &ga, &ba) != 3 ||
      std::sscanf(b.c_str(), "#%02x%02x%02x", &rb, &gb, &bb) != 3)
    return t < 0.5 ? a : b;
  auto lerp = [t](unsigned x, unsigned y) { return unsigned(std::lround(x + (double(y) - double(x)) * t)); };
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", lerp(ra, rb), lerp(ga, gb), lerp(ba, bb));
  return out;
}

}  // namespace

std::string NodeData::colour_of(const std::string& node) const {
  if (const auto c = colours.find(node); c != colours.end()) return c->second;
  const auto v = values.find(node);
  if (v == values.end() || std::isnan(v->second)) return {};
  if (gradient.size() >= 2 && !values.empty()) {
    double lo = values.begin()->second, hi = lo;
    for (const auto& [_, x] : values)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
    const double t = hi > lo ? std::clamp((v->second - lo) / (hi - lo), 0.0, 1.0) : 0.0;
    for (size_t i = 1; i < gradient.size(); ++i)
      if (t <= gradient[i].stop) {
        const double span = gradient[i].stop - gradient[i - 1].stop;
        return mix(gradient[i - 1].colour, gradient[i].colour, span > 0 ? (t - gradient[i - 1].stop) / span : 0);
      }
    return gradient.back().colour;
  }
  for (const NodeDataThreshold& th : thresholds)
    if (v->second <= th.value) return th.colour;
  return {};
}

std::vector<NodeData> read_node_data(const std::string& text, const std::string& label) {
  json doc;
  try {
    doc = json::parse(text, nullptr, true, false);
  } catch (const json::parse_error& e) {
    fail(label, "", "not JSON (at byte " + std::to_string(e.byte) + ")");
  }
  if (!doc.is_object()) fail(label, "", "expected an object");
  if (doc.contains("results")) return {read_graph(doc, label, "", label)};
  std::vector<NodeData> graphs;  // a model's data: {graph id: graph data}
  for (const auto& [id, g] : doc.items()) graphs.push_back(read_graph(g, label, id, id));
  if (graphs.empty()) fail(label, "", "no graph's data (expected \"results\", or {graph id: {\"results\": ...}})");
  return graphs;
}

std::string write_node_data(const NodeData& d) {
  json results = json::object();
  for (const auto& [node, v] : d.values) {
    json r = {{"value", std::isfinite(v) ? json(v) : json(v > 0 ? 1e308 : -1e308)}};
    if (const auto c = d.colours.find(node); c != d.colours.end()) r["bgColor"] = c->second;
    results[node] = std::move(r);
  }
  for (const auto& [node, l] : d.labels) results[node] = {{"value", l}};
  json out = {{"results", results}};
  if (!d.thresholds.empty()) {
    out["thresholds"] = json::array();
    for (const auto& t : d.thresholds) out["thresholds"].push_back({{"value", t.value}, {"bgColor", t.colour}});
  }
  if (!d.gradient.empty()) {
    out["gradient"] = json::array();
    for (const auto& s : d.gradient) out["gradient"].push_back({{"stop", s.stop}, {"bgColor", s.colour}});
  }
  return out.dump(2) + "\n";
}

NodeData node_data_of(const NumericsReport& report, const std::string& metric) {
  NodeData d;
  d.name = "introduced " + metric;
  for (const auto& n : report.nodes) d.values[n.node] = n.introduced ? n.introduced->metric(metric) : n.total.metric(metric);
  d.gradient = {{0, "#e8f5e9"}, {0.5, "#fff59d"}, {1, "#e53935"}};
  return d;
}

}  // namespace exportlens::numerics

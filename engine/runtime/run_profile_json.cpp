#include "engine/runtime/run_profile_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace exportlens::runtime {
namespace {

using nlohmann::json;

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }  // JSON has no NaN

json comparison_json(const ValueComparison& c) {
  json j = {{"name", c.name},        {"dtype", c.dtype},           {"max_abs", number(c.max_abs)},
            {"max_rel", number(c.max_rel)}, {"allclose", c.close}, {"rtol", c.tolerance.rtol},
            {"atol", c.tolerance.atol}, {"mismatched", c.mismatched}, {"elements", c.elements}};
  if (!c.mismatch.empty()) j["mismatch"] = c.mismatch;
  if (std::isnan(c.max_abs)) j["nan_mismatch"] = true;
  return j;
}

json kernel_json(const KernelRecord& k) {
  return {{"name", k.name}, {"ms", k.ms}, {"start_ms", k.start_ms}, {"grid", k.grid}, {"block", k.block}};
}

}  // namespace

std::string profile_json(const RunReport& r, const std::string& program) {
  json nodes = json::array();
  for (const auto& t : r.node_times) {
    json kernels = json::array();
    for (const auto& k : t.kernels) kernels.push_back(kernel_json(k));
    json memory = nullptr;
    if (t.live_bytes) memory = {{"live_bytes", *t.live_bytes}, {"peak_bytes", t.peak_bytes.value_or(0)}};
    nodes.push_back({{"name", t.node}, {"op", t.op}, {"ms", t.milliseconds}, {"start_ms", t.start_ms},
                     {"kernels", std::move(kernels)}, {"memory", std::move(memory)}});
  }
  json outputs = json::array();
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    const auto& o = r.outputs[i];
    json j = {{"name", i < r.output_names.size() ? r.output_names[i] : ""}, {"kind", o.kind}};
    if (o.kind == "tensor") {
      j["dtype"] = o.dtype;
      j["shape"] = o.shape;
      j["min"] = number(o.min);
      j["max"] = number(o.max);
      j["mean"] = number(o.mean);
    } else {
      j["value"] = o.text;
    }
    outputs.push_back(std::move(j));
  }
  json out = {{"program", program},
              {"device", r.device},
              {"time_source", r.time_source},
              {"warmup", r.warmup},
              {"repeat", r.repeat},
              {"total_ms", r.total_ms},
              {"host_total_ms", r.host_total_ms},
              {"run_ms", r.run_ms},
              {"precision", r.cast.precision.empty() ? "as exported" : r.cast.precision},
              {"cast", r.cast.text()},
              {"nodes", std::move(nodes)},
              {"outputs", std::move(outputs)},
              {"peak_bytes", r.peak_bytes ? json(*r.peak_bytes) : json(nullptr)}};
  if (!r.kernels_note.empty()) out["kernels_note"] = r.kernels_note;
  if (!r.memory_note.empty()) out["memory_note"] = r.memory_note;
  if (r.cuda_graph) {
    const auto& g = *r.cuda_graph;
    json j = {{"captured", g.captured}};
    if (g.captured) {
      j["replay_ms"] = g.replay_ms;
      j["eager_ms"] = g.eager_ms;
      j["replays"] = g.replays;
      j["speedup"] = g.replay_ms > 0 ? json(g.eager_ms / g.replay_ms) : json(nullptr);
      if (g.replay_matches_eager) j["replay_matches_eager"] = *g.replay_matches_eager;
    } else {
      j["why"] = g.why;
    }
    out["cuda_graph"] = std::move(j);
  }
  if (r.comparison) {
    const auto& c = *r.comparison;
    json outs = json::array(), ns = json::array();
    for (const auto& v : c.outputs) outs.push_back(comparison_json(v));
    for (const auto& v : c.nodes) ns.push_back(comparison_json(v));
    json j = {{"reference", c.reference_device},
              {"reference_precision", c.reference_precision},
              {"reference_ms", c.reference_ms},
              {"all_close", c.all_close},
              {"outputs", std::move(outs)}};
    if (!c.nodes.empty() || !c.nodes_note.empty()) {
      j["nodes"] = std::move(ns);
      j["first_divergent_node"] = c.first_divergent_node ? json(*c.first_divergent_node) : json(nullptr);
      if (!c.nodes_note.empty()) j["nodes_note"] = c.nodes_note;
    }
    out["comparison"] = std::move(j);
  }
  return out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string chrome_trace_json(const RunReport& r, const std::string& program) {
  json events = json::array();
  auto meta = [&](const char* what, int pid, int tid, const std::string& name) {
    json e = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid >= 0) e["tid"] = tid;
    events.push_back(std::move(e));
  };
  const bool has_kernels = [&] {
    for (const auto& t : r.node_times)
      if (!t.kernels.empty()) return true;
    return false;
  }();
  meta("process_name", 0, -1, "exportlens run " + program + " on " + r.device);
  meta("thread_name", 0, 0, "nodes (" + r.time_source + ")");
  if (has_kernels) {
    meta("process_name", 1, -1, "kernels of the profiled run (CUPTI)");
    meta("thread_name", 1, 0, "kernels");
  }
  for (const auto& t : r.node_times) {
    json args = {{"op", t.op}};
    if (!t.kernels.empty()) args["kernels"] = t.kernels.size();
    if (t.live_bytes) args["live_bytes"] = *t.live_bytes;
    events.push_back({{"name", t.node},
                      {"cat", "node"},
                      {"ph", "X"},
                      {"ts", t.start_ms * 1000.0},
                      {"dur", t.milliseconds * 1000.0},
                      {"pid", 0},
                      {"tid", 0},
                      {"args", std::move(args)}});
    if (t.live_bytes)
      events.push_back({{"name", "device memory"},
                        {"ph", "C"},
                        {"ts", (t.start_ms + t.milliseconds) * 1000.0},
                        {"pid", 0},
                        {"args", {{"live bytes", *t.live_bytes}}}});
    for (const auto& k : t.kernels)
      events.push_back({{"name", k.name},
                        {"cat", "kernel"},
                        {"ph", "X"},
                        {"ts", k.start_ms * 1000.0},
                        {"dur", k.ms * 1000.0},
                        {"pid", 1},
                        {"tid", 0},
                        {"args", {{"node", t.node}, {"grid", k.grid}, {"block", k.block}}}});
  }
  json out = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace exportlens::runtime

#include "engine/numerics/numerics_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/numerics/stats_json.h"

namespace exportlens::numerics {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

std::string stats_line(const ErrorStats& s) {
  std::string out = "max abs " + number(s.max_abs) + ", max rel " + number(s.max_rel) + ", SNR " +
                    number(s.snr_db) + " dB, cosine " + number(s.cosine);
  if (s.nan_a || s.nan_b || s.inf_a || s.inf_b)
    out += ", NaN/Inf A " + std::to_string(s.nan_a) + "/" + std::to_string(s.inf_a) + " B " + std::to_string(s.nan_b) +
           "/" + std::to_string(s.inf_b);
  return out;
}

nlohmann::json finite(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

nlohmann::json stats_json(const ErrorStats& s) {
  return {{"elements", s.elements}, {"max_abs", finite(s.max_abs)}, {"max_rel", finite(s.max_rel)},
          {"mse", finite(s.mse)},   {"snr_db", finite(s.snr_db)},   {"cosine", finite(s.cosine)},
          {"nan_a", s.nan_a},       {"inf_a", s.inf_a},             {"nan_b", s.nan_b},
          {"inf_b", s.inf_b},       {"beyond_tolerance", s.beyond_tolerance}, {"rtol", s.rtol}, {"atol", s.atol}};
}

double ErrorStats::metric(const std::string& name) const {
  if (name == "max_rel") return max_rel;
  if (name == "mse") return mse;
  if (name == "snr_db") return snr_db;
  if (name == "cosine") return cosine;
  return max_abs;
}

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = {"max_abs", "max_rel", "mse", "snr_db", "cosine"};
  return names;
}

bool larger_is_worse(const std::string& metric) { return metric != "snr_db" && metric != "cosine"; }

std::vector<size_t> NumericsReport::worst(const std::string& metric, size_t top) const {
  std::vector<size_t> order;
  for (size_t i = 0; i < nodes.size(); ++i) order.push_back(i);
  const bool larger = larger_is_worse(metric);
  // Worse first; NaN (a comparison that broke) is the worst of all.
  auto badness = [&](const ErrorStats& s) {
    const double v = s.metric(metric);
    if (std::isnan(v)) return std::numeric_limits<double>::infinity();
    return larger ? v : -v;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const NodeNumerics& a = nodes[x];
    const NodeNumerics& b = nodes[y];
    if (a.introduced.has_value() != b.introduced.has_value()) return a.introduced.has_value();
    const ErrorStats& sa = a.introduced ? *a.introduced : a.total;
    const ErrorStats& sb = b.introduced ? *b.introduced : b.total;
    return badness(sa) > badness(sb);
  });
  if (order.size() > top) order.resize(top);
  return order;
}

const NodeNumerics* NumericsReport::find(const std::string& node) const {
  for (const NodeNumerics& n : nodes)
    if (n.node == node) return &n;
  return nullptr;
}

std::string format_numerics(const NumericsReport& r, const std::string& metric, size_t top) {
  std::ostringstream out;
  out << "A: " << r.a_label << "\nB: " << r.b_label << "\n";
  out << "\noutputs (B against A):\n";
  for (const auto& [name, s] : r.outputs)
    out << "  " << name << ": " << (s.beyond_tolerance ? "beyond tolerance" : "close") << " (" << stats_line(s)
        << ")\n";
  out << "\n" << r.nodes.size() << " nodes compared";
  if (r.skipped) out << " (" << r.skipped << " without a counterpart or a comparable value)";
  out << "\n";
  auto name_of = [&](const std::optional<size_t>& i) {
    return i ? r.nodes[*i].node + " (" + r.nodes[*i].op + ")" : std::string("none");
  };
  out << "first divergent node (beyond tolerance): " << name_of(r.first_divergent) << "\n";
  out << "first node whose own error is beyond tolerance: " << name_of(r.first_introducing) << "\n";
  out << "first node turning finite inputs into NaN/Inf: B " << name_of(r.first_nonfinite_b) << ", A "
      << name_of(r.first_nonfinite_a) << "\n";
  const auto worst = r.worst(metric, top);
  if (!worst.empty()) {
    out << "\nworst nodes by the error they introduce (" << metric << "):\n";
    for (size_t i : worst) {
      const NodeNumerics& n = r.nodes[i];
      out << "  " << n.node << "  " << n.op << "  " << n.value << "\n";
      if (n.introduced) out << "      introduced: " << stats_line(*n.introduced) << "\n";
      out << "      total:      " << stats_line(n.total) << "\n";
    }
  }
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
  return out.str();
}

std::string numerics_json(const NumericsReport& r) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodeNumerics& n : r.nodes) {
    nlohmann::json j = {{"node", n.node},
                        {"b_node", n.b_node},
                        {"op", n.op},
                        {"value", n.value},
                        {"total", stats_json(n.total)},
                        {"introduced", n.introduced ? stats_json(*n.introduced) : nlohmann::json(nullptr)},
                        {"inherited_max_abs", n.inherited_max_abs ? finite(*n.inherited_max_abs) : nlohmann::json(nullptr)},
                        {"nonfinite_origin_a", n.nonfinite_origin_a},
                        {"nonfinite_origin_b", n.nonfinite_origin_b}};
    nodes.push_back(std::move(j));
  }
  auto index = [&](const std::optional<size_t>& i) { return i ? nlohmann::json(r.nodes[*i].node) : nlohmann::json(nullptr); };
  nlohmann::json outputs = nlohmann::json::array();
  for (const auto& [name, s] : r.outputs) outputs.push_back({{"name", name}, {"stats", stats_json(s)}});
  nlohmann::json out = {{"a", r.a_label},
                        {"b", r.b_label},
                        {"outputs", outputs},
                        {"all_outputs_close", r.all_outputs_close},
                        {"first_divergent", index(r.first_divergent)},
                        {"first_introducing", index(r.first_introducing)},
                        {"first_nonfinite_b", index(r.first_nonfinite_b)},
                        {"first_nonfinite_a", index(r.first_nonfinite_a)},
                        {"skipped", r.skipped},
                        {"notes", r.notes},
                        {"seconds", r.seconds},
                        {"peak_bytes", r.peak_bytes},
                        {"nodes", nodes}};
  return out.dump(1) + "\n";
}

}  // namespace exportlens::numerics

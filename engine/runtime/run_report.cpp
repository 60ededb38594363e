#include "engine/runtime/run_report.h"

#include <algorithm>
#include <cstdio>

namespace exportlens::runtime {

std::string CastReport::text() const {
  if (precision.empty()) return "nothing cast (as exported)";
  std::string parts;
  auto add = [&](int n, const char* one, const char* many) {
    if (n == 0) return;
    parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
  };
  add(parameters, "parameter", "parameters");
  add(buffers, "buffer", "buffers");
  add(inputs, "input", "inputs");
  std::string out = "cast to " + precision + ": " + (parts.empty() ? "no floating tensors" : parts);
  if (kept) out += "; " + std::to_string(kept) + " other tensor" + (kept == 1 ? "" : "s") + " kept (not floating, or a lifted constant)";
  return out;
}

std::string DeviceInfo::str() const {
  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f GiB", double(total_bytes) / double(int64_t(1) << 30));
  return "cuda:" + std::to_string(index) + "  " + name + "  " + memory + "  compute capability " +
         std::to_string(major) + "." + std::to_string(minor);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace exportlens::runtime

#include "engine/runtime/value_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "engine/runtime/torch_types.h"

namespace exportlens::runtime {
namespace {

constexpr int64_t kChunkElements = int64_t(1) << 20;

void fill_statistics(const at::Tensor& t, ValueSummary& s) {
  const at::Tensor flat = t.detach().contiguous().view(-1);
  const int64_t n = flat.numel();
  double low = std::numeric_limits<double>::infinity(), high = -low, sum = 0;
  const auto to_host = at::TensorOptions().device(c10::kCPU).dtype(c10::kDouble);
  for (int64_t begin = 0; begin < n; begin += kChunkElements) {
    const at::Tensor chunk = flat.slice(0, begin, std::min(n, begin + kChunkElements)).to(to_host);
    const double chunk_low = chunk.min().item<double>(), chunk_high = chunk.max().item<double>();
    // As torch's min and max: NaN wins.
    low = std::isnan(low) || std::isnan(chunk_low) ? std::nan("") : std::min(low, chunk_low);
    high = std::isnan(high) || std::isnan(chunk_high) ? std::nan("") : std::max(high, chunk_high);
    sum += chunk.sum().item<double>();
  }
  s.min = low;
  s.max = high;
  s.mean = sum / static_cast<double>(n);
}

}  // namespace

ValueSummary summarize(const c10::IValue& v) {
  ValueSummary s;
  std::ostringstream text;
  if (v.isTensor()) {
    const auto& t = v.toTensor();
    s.kind = "tensor";
    s.dtype = std::string(ir::torch_name(from_torch(t.scalar_type())));
    s.shape = t.sizes().vec();
    if (t.numel() > 0 && (t.is_floating_point() || c10::isIntegralType(t.scalar_type(), true))) fill_statistics(t, s);
    text << s.dtype << "[";
    for (size_t i = 0; i < s.shape.size(); ++i) text << (i ? ", " : "") << s.shape[i];
    text << "]";
    if (t.numel() > 0) text << " min " << s.min << " max " << s.max << " mean " << s.mean;
  } else if (v.isInt()) {
    s.kind = "int";
    text << v.toInt();
  } else if (v.isDouble()) {
    s.kind = "float";
    text << v.toDouble();
  } else if (v.isBool()) {
    s.kind = "bool";
    text << (v.toBool() ? "True" : "False");
  } else if (v.isNone()) {
    s.kind = "none";
    text << "None";
  } else {
    s.kind = "other";
    text << v.tagKind();
  }
  s.text = text.str();
  return s;
}

}  // namespace exportlens::runtime

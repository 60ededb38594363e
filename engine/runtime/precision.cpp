#include "engine/runtime/precision.h"

namespace exportlens::runtime {

std::optional<Precision> parse_precision(const std::string& text) {
  if (text == "fp32" || text == "float32" || text == "as-exported") return Precision::AsExported;
  if (text == "bf16" || text == "bfloat16") return Precision::BFloat16;
  if (text == "fp16" || text == "float16" || text == "half") return Precision::Float16;
  if (text == "fp64" || text == "float64" || text == "double") return Precision::Float64;
  return std::nullopt;
}

std::string precision_name(Precision p) {
  switch (p) {
    case Precision::AsExported: return "as exported";
    case Precision::BFloat16: return "bfloat16";
    case Precision::Float16: return "float16";
    case Precision::Float64: return "float64";
  }
  return "?";
}

}  // namespace exportlens::runtime

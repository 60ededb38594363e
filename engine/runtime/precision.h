#pragma once
// The precision a run computes in: as exported (fp32 models stay fp32), or
// every floating parameter, buffer and input cast to bf16 / fp16, as
// `ep.module().to(dtype)` with cast inputs runs (lifted constants stay, as
// nn.Module.to leaves them). No LibTorch here.
#include <optional>
#include <string>

namespace exportlens::runtime {

/// Float64: every floating parameter, buffer and input in double, as a reference run.
enum class Precision { AsExported, BFloat16, Float16, Float64 };

/// "fp32" (also "float32", "as-exported"), "bf16" / "bfloat16", "fp16" / "float16" / "half", "fp64" / "float64".
std::optional<Precision> parse_precision(const std::string& text);
/// "as exported", "bfloat16", "float16", "float64".
std::string precision_name(Precision p);

}  // namespace exportlens::runtime

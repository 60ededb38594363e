// transformers' expert matmul (torch.ops.transformers.grouped_mm_fallback),
// which transformers registers from Python (transformers/integrations/moe.py)
// and its mixture-of-experts layers call when torch's grouped_mm does not
// apply (float32 weights, the CPU): Mixtral's and Qwen2-MoE's programs call it
// for every expert projection (python_defined_ops.h). Computed as
// transformers' own kernel computes it: rows sorted by expert, expert i's rows
// [offs[i-1], offs[i]) times weight[i], one mm each into a zeroed output.
#include "engine/runtime/python_defined_ops.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <memory>

namespace exportlens::runtime {
namespace {

// The checks of transformers' fake kernel, so a program whose shapes lie fails
// with transformers' reason instead of inside a matmul.
void check_operands(const at::Tensor& input, const at::Tensor& weight, const at::Tensor& offs) {
  TORCH_CHECK(input.dim() == 2, "input must be 2D (S, input_dim), got shape ", input.sizes());
  TORCH_CHECK(weight.dim() == 3, "weight must be 3D (num_experts, input_dim, output_dim), got shape ", weight.sizes());
  TORCH_CHECK(offs.dim() == 1, "offs must be 1D (num_experts,), got shape ", offs.sizes());
  TORCH_CHECK(offs.size(0) == weight.size(0), "offs length ", offs.size(0), " must match number of experts ",
              weight.size(0));
  TORCH_CHECK(input.size(1) == weight.size(1), "input_dim mismatch: input has ", input.size(1), ", weight has ",
              weight.size(1));
  TORCH_CHECK(offs.scalar_type() == at::kInt || offs.scalar_type() == at::kLong,
              "offs must be an integer tensor, got ", offs.scalar_type());
}

at::Tensor grouped_mm_fallback(const at::Tensor& input, const at::Tensor& weight, const at::Tensor& offs) {
  check_operands(input, weight, offs);
  at::Tensor output = at::zeros({input.size(0), weight.size(2)}, input.options());
  const at::Tensor ends = offs.to(at::kCPU, at::kLong).contiguous();
  const int64_t* end_of = ends.const_data_ptr<int64_t>();
  int64_t start = 0;
  for (int64_t i = 0; i < ends.numel(); ++i) {
    const int64_t end = end_of[i];
    if (start == end) continue;
    // Python's slice [start:end]: clamped to the rows, empty when end < start.
    at::Tensor rows = output.slice(0, start, end);
    at::mm_out(rows, input.slice(0, start, end), weight[i]);
    start = end;
  }
  return output;
}

}  // namespace

void register_transformers_ops() {
  if (c10::Dispatcher::singleton().findSchema({"transformers::grouped_mm_fallback", ""})) return;
  static auto lib = std::make_unique<torch::Library>(torch::Library::DEF, "transformers", std::nullopt, __FILE__,
                                                     __LINE__);
  lib->def("grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor", TORCH_FN(grouped_mm_fallback));
}

}  // namespace exportlens::runtime

#include "engine/passes/autocast_policy.h"

#include <set>

namespace exportlens::passes {

namespace {

// torch 2.13's lower_precision_fp registrations (KERNEL_CPU / KERNEL_CUDA), by op packet.
const std::set<std::string_view, std::less<>>& cpu_lower_precision() {
  static const std::set<std::string_view, std::less<>> ops = {
      "aten.conv1d", "aten.conv2d", "aten.conv3d", "aten.bmm", "aten.mm", "aten.linalg_vecdot", "aten.baddbmm",
      "aten.addmm", "aten.addbmm", "aten.linear", "aten._convolution", "aten.matmul", "aten.conv_tbc",
      "aten.mkldnn_rnn_layer", "aten.conv_transpose1d", "aten.conv_transpose2d", "aten.conv_transpose3d",
      "aten.prelu", "aten.scaled_dot_product_attention", "aten._native_multi_head_attention",
  };
  return ops;
}

const std::set<std::string_view, std::less<>>& cuda_lower_precision() {
  static const std::set<std::string_view, std::less<>> ops = {
      "aten._convolution", "aten.conv1d", "aten.conv2d", "aten.conv3d", "aten.conv_tbc", "aten.conv_transpose1d",
      "aten.conv_transpose2d", "aten.conv_transpose3d", "aten.convolution", "aten.prelu", "aten.addmm",
      "aten.addmv", "aten.addr", "aten.matmul", "aten.einsum", "aten.mm", "aten.mv", "aten.linalg_vecdot",
      "aten.linear", "aten.addbmm", "aten.baddbmm", "aten.bmm", "aten.chain_matmul", "aten.linalg_multi_dot",
      "aten._thnn_fused_lstm_cell", "aten._thnn_fused_gru_cell", "aten.lstm_cell", "aten.gru_cell",
      "aten.rnn_tanh_cell", "aten.rnn_relu_cell", "aten._scaled_dot_product_flash_attention",
      "aten.scaled_dot_product_attention",
  };
  return ops;
}

}  // namespace

std::optional<AutocastRegion> autocast_region(const std::string& device, std::optional<ir::ScalarType> dtype,
                                              bool enabled) {
  if (!enabled) return std::nullopt;
  // torch.autocast's defaults: bfloat16 on the CPU, float16 on accelerators.
  const ir::ScalarType fallback = device == "cpu" ? ir::ScalarType::BFloat16 : ir::ScalarType::Half;
  return AutocastRegion{device, dtype.value_or(fallback)};
}

bool casts_to_lower_precision(const std::string& device, std::string_view op_packet) {
  if (device == "cpu") return cpu_lower_precision().count(op_packet) > 0;
  if (device == "cuda") return cuda_lower_precision().count(op_packet) > 0;
  return false;
}

}  // namespace exportlens::passes

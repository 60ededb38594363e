#pragma once
// Registers pt2e's quantize / dequantize ops (quantized_decomposed::*) with
// LibTorch's dispatcher, once, unless the process has them already (they are
// torch's Python registrations): what makes a pt2e-quantized program run here.
// Called before any op lookup (interpreter, op signatures).
namespace exportlens::runtime {

void ensure_quantized_decomposed_ops();

}  // namespace exportlens::runtime

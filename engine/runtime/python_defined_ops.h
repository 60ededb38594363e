#pragma once
// Ops that exported programs call but that a library registers from Python
// (torch.library), so a LibTorch process does not have them: pt2e's
// quantize / dequantize ops (torch's quantized_decomposed::*) and the expert
// matmul of transformers' mixture-of-experts layers (transformers::*). Their
// semantics are fixed and small; each library's ops live in a file of their
// own and are registered here with the library's schemas, once, unless the
// process has them already (Python imported in it keeps the library's own).
// Called before any op lookup (interpreter, op signatures).
namespace exportlens::runtime {

void ensure_python_defined_ops();

// One library's registrations (python_defined_ops.cpp calls them once each).
void register_quantized_decomposed_ops();
void register_transformers_ops();

}  // namespace exportlens::runtime

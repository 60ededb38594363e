// pt2e's quantize / dequantize ops (torch.ops.quantized_decomposed.*), which
// torch registers from Python (torch/ao/quantization/fx/_decomposed.py): what
// makes a pt2e-quantized program run here (python_defined_ops.h). Registered
// with torch's schemas, computing what torch's CompositeExplicitAutograd
// kernels compute (round half to even, clamp, cast; dequantize in the output
// dtype).
#include "engine/runtime/python_defined_ops.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <memory>
#include <stdexcept>

namespace exportlens::runtime {
namespace {

void check_bounds(int64_t quant_min, int64_t quant_max, at::ScalarType dtype) {
  int64_t lo = 0, hi = 0;
  switch (dtype) {
    case at::kByte: lo = 0, hi = 255; break;
    case at::kChar: lo = -128, hi = 127; break;
    case at::kShort: lo = -32768, hi = 32767; break;
    case at::kInt: lo = INT32_MIN, hi = INT32_MAX; break;
    case at::kBits16: lo = 0, hi = 65535; break;
    default: return;  // float8 and others: torch does not check them either
  }
  TORCH_CHECK(quant_min >= lo && quant_max <= hi && quant_min <= quant_max, "quant_min ", quant_min, " / quant_max ",
              quant_max, " out of the range of ", dtype);
}

at::Tensor as_float(const at::Tensor& input) {
  const at::Tensor x = (input.scalar_type() == at::kHalf || input.scalar_type() == at::kBFloat16) ? input.to(at::kFloat) : input;
  TORCH_CHECK(x.scalar_type() == at::kFloat, "quantize expects a float32 input, got ", x.scalar_type());
  return x;
}

at::Tensor quantize_per_tensor(const at::Tensor& input, double scale, int64_t zero_point, int64_t quant_min,
                               int64_t quant_max, at::ScalarType dtype) {
  check_bounds(quant_min, quant_max, dtype);
  const double inv_scale = 1.0 / scale;
  return at::clamp(at::round(as_float(input) * inv_scale) + zero_point, quant_min, quant_max).to(dtype);
}

double scalar_of(const at::Tensor& t, const char* what) {
  TORCH_CHECK(t.numel() == 1, "expected one element for ", what, ", got ", t.numel());
  return t.item<double>();
}

at::Tensor quantize_per_tensor_tensor(const at::Tensor& input, const at::Tensor& scale, const at::Tensor& zero_point,
                                      int64_t quant_min, int64_t quant_max, at::ScalarType dtype) {
  return quantize_per_tensor(input, scalar_of(scale, "scale"), int64_t(scalar_of(zero_point, "zero_point")), quant_min,
                             quant_max, dtype);
}

at::Tensor quantize_per_tensor_tensor2(const at::Tensor& input, const at::Tensor& scale, const at::Tensor& zero_point,
                                       const at::Tensor& quant_min, const at::Tensor& quant_max, at::ScalarType dtype) {
  return quantize_per_tensor(input, scalar_of(scale, "scale"), int64_t(scalar_of(zero_point, "zero_point")),
                             int64_t(scalar_of(quant_min, "quant_min")), int64_t(scalar_of(quant_max, "quant_max")), dtype);
}

at::Tensor dequantize_per_tensor(const at::Tensor& input, double scale, int64_t zero_point, int64_t, int64_t,
                                 at::ScalarType dtype, std::optional<at::ScalarType> out_dtype) {
  TORCH_CHECK(input.scalar_type() == dtype, "dequantize expects an input of ", dtype, ", got ", input.scalar_type());
  return (input.to(out_dtype.value_or(at::kFloat)) - zero_point) * scale;
}

at::Tensor dequantize_per_tensor_tensor(const at::Tensor& input, const at::Tensor& scale, const at::Tensor& zero_point,
                                        int64_t quant_min, int64_t quant_max, at::ScalarType dtype,
                                        std::optional<at::ScalarType> out_dtype) {
  return dequantize_per_tensor(input, scalar_of(scale, "scale"), int64_t(scalar_of(zero_point, "zero_point")), quant_min,
                               quant_max, dtype, out_dtype);
}

at::Tensor dequantize_per_tensor_tensor2(const at::Tensor& input, const at::Tensor& scale, const at::Tensor& zero_point,
                                         const at::Tensor& quant_min, const at::Tensor& quant_max, at::ScalarType dtype,
                                         std::optional<at::ScalarType> out_dtype) {
  return dequantize_per_tensor(input, scalar_of(scale, "scale"), int64_t(scalar_of(zero_point, "zero_point")),
                               int64_t(scalar_of(quant_min, "quant_min")), int64_t(scalar_of(quant_max, "quant_max")),
                               dtype, out_dtype);
}

// Per-channel parameters broadcast along `axis`.
std::vector<int64_t> along(const at::Tensor& input, int64_t axis, const at::Tensor& params) {
  TORCH_CHECK(axis >= 0 && axis < input.dim(), "axis ", axis, " out of range for a ", input.dim(), "-d input");
  std::vector<int64_t> shape(size_t(input.dim()), 1);
  shape[size_t(axis)] = params.size(0);
  return shape;
}

at::Tensor quantize_per_channel(const at::Tensor& input, const at::Tensor& scales, const at::Tensor& zero_points,
                                int64_t axis, int64_t quant_min, int64_t quant_max, at::ScalarType dtype) {
  const at::Tensor x = as_float(input);
  check_bounds(quant_min, quant_max, dtype);
  const auto shape = along(x, axis, scales);
  return at::clamp(at::round(x * (1.0 / scales.view(shape))) + zero_points.view(shape), quant_min, quant_max).to(dtype);
}

at::Tensor dequantize_per_channel(const at::Tensor& input, const at::Tensor& scales,
                                  const std::optional<at::Tensor>& zero_points, int64_t axis, int64_t quant_min,
                                  int64_t quant_max, at::ScalarType dtype, std::optional<at::ScalarType> out_dtype) {
  TORCH_CHECK(input.scalar_type() == dtype, "dequantize expects an input of ", dtype, ", got ", input.scalar_type());
  check_bounds(quant_min, quant_max, dtype);
  const auto shape = along(input, axis, scales);
  const at::Tensor res = zero_points ? (input - zero_points->view(shape)) * scales.view(shape) : input * scales.view(shape);
  return res.to(out_dtype.value_or(at::kFloat));
}

// torch's determine_qparams for per-tensor affine (asymmetric) quantization.
std::tuple<at::Tensor, at::Tensor> choose_qparams(const at::Tensor& input, int64_t quant_min, int64_t quant_max, double eps,
                                                  at::ScalarType dtype, bool symmetric) {
  check_bounds(quant_min, quant_max, dtype);
  const at::Tensor x = as_float(input);
  const at::Tensor zero = at::zeros({1}, x.options());
  const at::Tensor min_neg = at::minimum(x.min().reshape({1}), zero);
  const at::Tensor max_pos = at::maximum(x.max().reshape({1}), zero);
  at::Tensor scale, zero_point;
  if (symmetric) {
    const at::Tensor amax = at::maximum(-min_neg, max_pos);
    scale = at::clamp_min(amax / ((double(quant_max) - double(quant_min)) / 2), eps);
    const int64_t mid = dtype == at::kByte || dtype == at::kBits16 ? (quant_min + quant_max + 1) / 2 : 0;
    zero_point = at::full({1}, mid, x.options().dtype(at::kLong));
  } else {
    scale = at::clamp_min((max_pos - min_neg) / (double(quant_max) - double(quant_min)), eps);
    zero_point = at::clamp(quant_min - at::round(min_neg / scale).to(at::kLong), quant_min, quant_max);
  }
  return {scale.to(at::kDouble), zero_point.to(at::kLong)};
}

std::tuple<at::Tensor, at::Tensor> choose_qparams_tensor(const at::Tensor& input, int64_t quant_min, int64_t quant_max,
                                                         double eps, at::ScalarType dtype) {
  return choose_qparams(input, quant_min, quant_max, eps, dtype, false);
}
std::tuple<at::Tensor, at::Tensor> choose_qparams_symmetric_tensor(const at::Tensor& input, int64_t quant_min,
                                                                   int64_t quant_max, double eps, at::ScalarType dtype) {
  return choose_qparams(input, quant_min, quant_max, eps, dtype, true);
}

}  // namespace

void register_quantized_decomposed_ops() {
  // A process that has them already (Python torch imported in it) keeps torch's own.
  if (c10::Dispatcher::singleton().findSchema({"quantized_decomposed::quantize_per_tensor", ""})) return;
  static auto lib = std::make_unique<torch::Library>(torch::Library::DEF, "quantized_decomposed", std::nullopt,
                                                     __FILE__, __LINE__);
  lib->def("quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, "
           "ScalarType dtype) -> Tensor", TORCH_FN(quantize_per_tensor));
  lib->def("quantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max, "
           "ScalarType dtype) -> Tensor", TORCH_FN(quantize_per_tensor_tensor));
  lib->def("quantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, Tensor quant_min, "
           "Tensor quant_max, ScalarType dtype) -> Tensor", TORCH_FN(quantize_per_tensor_tensor2));
  lib->def("dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, "
           "ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor", TORCH_FN(dequantize_per_tensor));
  lib->def("dequantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, int quant_min, "
           "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
           TORCH_FN(dequantize_per_tensor_tensor));
  lib->def("dequantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, Tensor quant_min, "
           "Tensor quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
           TORCH_FN(dequantize_per_tensor_tensor2));
  lib->def("quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, int quant_min, "
           "int quant_max, ScalarType dtype) -> Tensor", TORCH_FN(quantize_per_channel));
  lib->def("dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min, "
           "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
           TORCH_FN(dequantize_per_channel));
  lib->def("choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, ScalarType dtype) -> "
           "(Tensor, Tensor)", TORCH_FN(choose_qparams_tensor));
  lib->def("choose_qparams_symmetric.tensor(Tensor input, int quant_min, int quant_max, float eps, "
           "ScalarType dtype) -> (Tensor, Tensor)", TORCH_FN(choose_qparams_symmetric_tensor));
}

}  // namespace exportlens::runtime

#include "engine/runtime/numerics.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/abs.h>
#include <ATen/ops/isinf.h>
#include <ATen/ops/isnan.h>
#include <ATen/ops/logical_and.h>
#include <ATen/ops/logical_not.h>
#include <ATen/ops/logical_or.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <c10/core/ScalarType.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "engine/runtime/torch_types.h"

namespace exportlens::runtime {
namespace {

std::string shape_text(at::IntArrayRef sizes) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < sizes.size(); ++i) s << (i ? ", " : "") << sizes[i];
  s << "]";
  return s.str();
}

std::string dtype_text(c10::ScalarType t) { return std::string(ir::torch_name(from_torch(t))); }

Tolerance looser(Tolerance a, Tolerance b) { return {std::max(a.rtol, b.rtol), std::max(a.atol, b.atol)}; }

// Folds one more pair of tensors into `c` (the worst element of all pairs counts).
void compare_tensors(ValueComparison& c, const at::Tensor& run, const at::Tensor& ref) {
  if (run.sizes() != ref.sizes()) {
    c.mismatch = "shape " + shape_text(run.sizes()) + " vs " + shape_text(ref.sizes());
    return;
  }
  c.tolerance = looser(c.tolerance, looser(default_tolerance(run.scalar_type()), default_tolerance(ref.scalar_type())));
  c.dtype = dtype_text(run.scalar_type());
  c.elements += run.numel();
  if (run.numel() == 0) return;
  if (run.is_complex() != ref.is_complex()) {
    c.mismatch = "dtype " + dtype_text(run.scalar_type()) + " vs " + dtype_text(ref.scalar_type());
    return;
  }
  const auto wide = run.is_complex() ? c10::kComplexDouble : c10::kDouble;
  const at::Tensor a = run.detach().to(c10::kCPU).to(wide);
  const at::Tensor b = ref.detach().to(c10::kCPU).to(wide);
  const at::Tensor both_nan = at::logical_and(at::isnan(a), at::isnan(b));
  const at::Tensor one_nan = at::logical_and(at::logical_or(at::isnan(a), at::isnan(b)), at::logical_not(both_nan));
  // Equal infinities differ by NaN (inf - inf): count them as equal.
  const at::Tensor equal = a.eq(b);
  const at::Tensor raw = a.sub(b).abs().to(c10::kDouble);  // real for complex values too
  const at::Tensor diff = at::where(at::logical_or(equal, both_nan), at::zeros_like(raw), raw);
  const at::Tensor mag = b.abs().to(c10::kDouble);
  const at::Tensor limit = mag.mul(c.tolerance.rtol).add(c.tolerance.atol);
  // Unequal values beyond the tolerance; an infinity unequal to its partner
  // is beyond any tolerance (its limit would be infinite too).
  const at::Tensor unequal = at::logical_not(at::logical_or(equal, both_nan));
  const at::Tensor infinite = at::logical_or(at::isinf(a), at::isinf(b));
  const at::Tensor bad = at::logical_and(
      unequal, at::logical_or(at::logical_or(diff.gt(limit), infinite), at::logical_or(one_nan, diff.isnan())));
  c.mismatched += bad.sum().item<int64_t>();
  if (one_nan.any().item<bool>()) {
    c.max_abs = std::numeric_limits<double>::quiet_NaN();
  } else if (!std::isnan(c.max_abs)) {
    c.max_abs = std::max(c.max_abs, diff.max().item<double>());
  }
  const at::Tensor nonzero = mag.gt(0);
  if (nonzero.any().item<bool>()) {
    const at::Tensor rel = at::where(nonzero, diff.div(at::where(nonzero, mag, at::ones_like(mag))), at::zeros_like(mag));
    const double worst = rel.max().item<double>();
    if (!std::isnan(worst)) c.max_rel = std::max(c.max_rel, worst);
  }
}

void compare_into(ValueComparison& c, const c10::IValue& run, const c10::IValue& ref) {
  if (!c.mismatch.empty()) return;
  if (run.isTensor() && ref.isTensor()) {
    compare_tensors(c, run.toTensor(), ref.toTensor());
    return;
  }
  auto items = [](const c10::IValue& v) -> std::optional<std::vector<c10::IValue>> {
    if (v.isTuple()) return v.toTupleRef().elements().vec();
    if (v.isList()) return v.toListRef().vec();
    return std::nullopt;
  };
  const auto a = items(run), b = items(ref);
  if (a && b) {
    if (a->size() != b->size()) {
      c.mismatch = std::to_string(a->size()) + " values vs " + std::to_string(b->size());
      return;
    }
    for (size_t i = 0; i < a->size() && c.mismatch.empty(); ++i) compare_into(c, (*a)[i], (*b)[i]);
    return;
  }
  if ((run.isInt() || run.isDouble() || run.isBool()) && (ref.isInt() || ref.isDouble() || ref.isBool())) {
    auto num = [](const c10::IValue& v) { return v.isInt() ? double(v.toInt()) : v.isBool() ? double(v.toBool()) : v.toDouble(); };
    const double x = num(run), y = num(ref);
    const bool floating = run.isDouble() || ref.isDouble();
    if (floating) c.tolerance = looser(c.tolerance, default_tolerance(c10::kDouble));
    const double d = (std::isnan(x) && std::isnan(y)) || x == y ? 0.0 : std::abs(x - y);
    c.elements += 1;
    c.max_abs = std::isnan(d) ? d : std::max(c.max_abs, d);
    if (y != 0 && !std::isnan(d)) c.max_rel = std::max(c.max_rel, d / std::abs(y));
    if (std::isnan(d) || d > c.tolerance.atol + c.tolerance.rtol * std::abs(y)) ++c.mismatched;
    if (c.dtype.empty()) c.dtype = run.isDouble() ? "float" : run.isBool() ? "bool" : "int";
    return;
  }
  if (run.isNone() && ref.isNone()) return;
  if (run.isString() && ref.isString()) {
    c.elements += 1;
    if (run.toStringRef() != ref.toStringRef()) ++c.mismatched;
    return;
  }
  c.mismatch = std::string("kind ") + run.tagKind() + " vs " + ref.tagKind();
}

}  // namespace

Tolerance default_tolerance(c10::ScalarType dtype) {
  switch (dtype) {
    case c10::kHalf: return {1e-3, 1e-5};
    case c10::kBFloat16: return {1.6e-2, 1e-5};
    case c10::kFloat: return {1.3e-6, 1e-5};
    case c10::kDouble: return {1e-7, 1e-7};
    case c10::kComplexHalf: return {1e-3, 1e-5};
    case c10::kComplexFloat: return {1.3e-6, 1e-5};
    case c10::kComplexDouble: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

ValueComparison compare_values(const std::string& name, const c10::IValue& run, const c10::IValue& reference) {
  ValueComparison c;
  c.name = name;
  compare_into(c, run, reference);
  c.close = c.mismatch.empty() && c.mismatched == 0;
  return c;
}

}  // namespace exportlens::runtime

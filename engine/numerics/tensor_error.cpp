#include "engine/numerics/tensor_error.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

#include "engine/ir/dtype.h"
#include "engine/runtime/numerics.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::numerics {
namespace {

// Sums over every tensor pair of a value, folded into ErrorStats at the end.
struct Accumulator {
  int64_t elements = 0;
  double max_abs = 0, max_rel = 0, sum_sq_diff = 0, sum_sq_a = 0, sum_sq_b = 0, dot = 0;
  int64_t nan_a = 0, inf_a = 0, nan_b = 0, inf_b = 0;
  bool finiteness_differs = false;
  bool beyond = false;
  runtime::Tolerance tol{0, 0};

  bool add(const at::Tensor& a_in, const at::Tensor& b_in) {
    if (a_in.sizes() != b_in.sizes()) return false;
    const at::Tensor a = a_in.to(at::kDouble);
    const at::Tensor b = b_in.to(a.device(), at::kDouble);
    const runtime::Tolerance ta = runtime::default_tolerance(a_in.scalar_type());
    const runtime::Tolerance tb = runtime::default_tolerance(b_in.scalar_type());
    tol = {std::max({tol.rtol, ta.rtol, tb.rtol}), std::max({tol.atol, ta.atol, tb.atol})};
    elements += a.numel();
    if (a.numel() == 0) return true;
    const at::Tensor fa = a.isfinite(), fb = b.isfinite();
    nan_a += a.isnan().sum().item<int64_t>();
    nan_b += b.isnan().sum().item<int64_t>();
    inf_a += a.isinf().sum().item<int64_t>();
    inf_b += b.isinf().sum().item<int64_t>();
    // Where one side is finite and the other is not, or they are non-finite
    // differently (NaN against Inf, +Inf against -Inf), the error is unbounded.
    const at::Tensor both = fa.logical_and(fb);
    if (!both.all().item<bool>()) {
      const at::Tensor one_sided = fa.ne(fb);
      const at::Tensor unlike = fa.logical_not().logical_and(fb.logical_not())
                                    .logical_and(a.isnan().logical_and(b.isnan()).logical_not())
                                    .logical_and(a.ne(b));
      if (one_sided.logical_or(unlike).any().item<bool>()) finiteness_differs = true;
    }
    const at::Tensor af = at::where(both, a, at::zeros_like(a));
    const at::Tensor bf = at::where(both, b, at::zeros_like(b));
    const at::Tensor diff = (bf - af).abs();
    max_abs = std::max(max_abs, diff.max().item<double>());
    const at::Tensor nonzero = af.ne(0);
    if (nonzero.any().item<bool>())
      max_rel = std::max(max_rel, at::where(nonzero, diff / af.abs(), at::zeros_like(diff)).max().item<double>());
    sum_sq_diff += diff.pow(2).sum().item<double>();
    sum_sq_a += af.pow(2).sum().item<double>();
    sum_sq_b += bf.pow(2).sum().item<double>();
    dot += (af * bf).sum().item<double>();
    if (diff.gt(tol.atol + tol.rtol * af.abs()).any().item<bool>()) beyond = true;
    return true;
  }

  ErrorStats stats() const {
    ErrorStats s;
    s.elements = elements;
    s.nan_a = nan_a, s.inf_a = inf_a, s.nan_b = nan_b, s.inf_b = inf_b;
    s.rtol = tol.rtol, s.atol = tol.atol;
    const double inf = std::numeric_limits<double>::infinity();
    s.max_abs = finiteness_differs ? inf : max_abs;
    s.max_rel = finiteness_differs ? inf : max_rel;
    s.mse = elements ? (finiteness_differs ? inf : sum_sq_diff / double(elements)) : 0;
    s.snr_db = finiteness_differs ? -inf : sum_sq_diff == 0 ? inf : 10 * std::log10(sum_sq_a / sum_sq_diff);
    const double norms = std::sqrt(sum_sq_a) * std::sqrt(sum_sq_b);
    s.cosine = finiteness_differs ? std::nan("") : norms == 0 ? (sum_sq_a == sum_sq_b ? 1.0 : 0.0) : dot / norms;
    s.beyond_tolerance = beyond || finiteness_differs;
    return s;
  }
};

at::Tensor as_tensor(const c10::IValue& v) {
  if (v.isTensor()) return v.toTensor();
  if (v.isInt()) return at::scalar_tensor(double(v.toInt()), at::kDouble);
  if (v.isDouble()) return at::scalar_tensor(v.toDouble(), at::kDouble);
  if (v.isBool()) return at::scalar_tensor(double(v.toBool()), at::kDouble);
  return {};
}

bool fold(Accumulator& acc, const c10::IValue& a, const c10::IValue& b) {
  if ((a.isTuple() || a.isList()) != (b.isTuple() || b.isList())) return false;
  if (a.isTuple() || a.isList()) {
    const auto xs = a.isTuple() ? a.toTupleRef().elements().vec() : a.toListRef().vec();
    const auto ys = b.isTuple() ? b.toTupleRef().elements().vec() : b.toListRef().vec();
    if (xs.size() != ys.size()) return false;
    for (size_t i = 0; i < xs.size(); ++i)
      if (!fold(acc, xs[i], ys[i])) return false;
    return true;
  }
  if (a.isNone() && b.isNone()) return true;
  const at::Tensor ta = as_tensor(a), tb = as_tensor(b);
  if (!ta.defined() || !tb.defined()) return false;
  return acc.add(ta, tb);
}

TensorStats stats_of(const at::Tensor& d) {
  TensorStats s;
  s.nans = d.isnan().sum().item<int64_t>();
  s.infs = d.isinf().sum().item<int64_t>();
  s.zeros = d.eq(0).sum().item<int64_t>();
  const at::Tensor finite = d.masked_select(d.isfinite());
  if (finite.numel() == 0) return s;
  s.min = finite.min().item<double>();
  s.max = finite.max().item<double>();
  s.mean = finite.mean().item<double>();
  s.std = finite.numel() > 1 ? finite.std().item<double>() : 0.0;
  s.abs_max = finite.abs().max().item<double>();
  return s;
}

TensorSnapshot snapshot_of_double(const at::Tensor& d, const std::string& dtype, const std::string& device,
                                  at::IntArrayRef strides, int64_t max_elements) {
  TensorSnapshot t;
  t.dtype = dtype;
  t.device = device;
  t.sizes = d.sizes().vec();
  t.strides = strides.vec();
  t.stats = stats_of(d);
  constexpr int kBins = 64;
  const at::Tensor finite = d.masked_select(d.isfinite());
  if (finite.numel() > 0) {
    const double lo = t.stats.min, hi = t.stats.max > t.stats.min ? t.stats.max : t.stats.min + 1;
    const at::Tensor counts = finite.histc(kBins, lo, hi).to(at::kLong);
    t.histogram.assign(counts.data_ptr<int64_t>(), counts.data_ptr<int64_t>() + kBins);
  }
  if (d.numel() <= max_elements) {
    const at::Tensor f = d.to(at::kFloat).contiguous();
    t.values.assign(f.data_ptr<float>(), f.data_ptr<float>() + f.numel());
  }
  return t;
}

}  // namespace

std::optional<ErrorStats> error_stats(const c10::IValue& a, const c10::IValue& b) {
  Accumulator acc;
  if (!fold(acc, a, b)) return std::nullopt;
  return acc.stats();
}

bool all_finite(const c10::IValue& v) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    return !t.defined() || !t.is_floating_point() || t.numel() == 0 || t.isfinite().all().item<bool>();
  }
  if (v.isDouble()) return std::isfinite(v.toDouble());
  if (v.isTuple() || v.isList()) {
    for (const auto& x : v.isTuple() ? v.toTupleRef().elements().vec() : v.toListRef().vec())
      if (!all_finite(x)) return false;
  }
  return true;
}

TensorSnapshot snapshot(const at::Tensor& t, int64_t max_elements) {
  const at::Tensor d = t.detach().to(at::kCPU, at::kDouble);
  return snapshot_of_double(d, std::string(ir::short_name(runtime::from_torch(t.scalar_type()))), t.device().str(),
                            t.strides(), max_elements);
}

TensorSnapshot difference_snapshot(const at::Tensor& a, const at::Tensor& b, int64_t max_elements) {
  const at::Tensor d = b.detach().to(at::kCPU, at::kDouble) - a.detach().to(at::kCPU, at::kDouble);
  return snapshot_of_double(d, "f64", "cpu", d.strides(), max_elements);
}

}  // namespace exportlens::numerics

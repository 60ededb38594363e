#include "engine/numerics/tensor_error.h"

#include <ATen/ATen.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "engine/ir/dtype.h"
#include "engine/runtime/numerics.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::numerics {
namespace {

// The per-element loops are compiled twice on x86-64, for AVX2 and for the
// baseline, and the loader picks one for the CPU it runs on: the build
// targets any x86-64, and a numerics run reads every element of both runs.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EXPORTLENS_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define EXPORTLENS_AVX2_CLONE
#endif

// Four doubles as one vector (GCC's and Clang's vector extension): one AVX2
// register, or two SSE2 ones in the baseline clone. The helpers are inlined
// into the loops, so how a 32-byte vector is passed never matters (GCC's
// -Wpsabi note is off for this file: CMakeLists.txt).
using Lanes = double __attribute__((vector_size(32)));
using LaneMask = int64_t __attribute__((vector_size(32)));  // a comparison's lanes: all ones or all zeros
inline Lanes splat(double v) { return Lanes{v, v, v, v}; }
inline Lanes select(LaneMask m, Lanes yes, Lanes no) { return Lanes((LaneMask(yes) & m) | (LaneMask(no) & ~m)); }
inline Lanes abs(Lanes v) {
  constexpr int64_t kMagnitude = std::numeric_limits<int64_t>::max();  // every bit but the sign
  return Lanes(LaneMask(v) & LaneMask{kMagnitude, kMagnitude, kMagnitude, kMagnitude});
}
// std::max's choice in each lane: `a` unless a < b.
inline Lanes max(Lanes a, Lanes b) { return select(a < b, b, a); }

// Elements of any dtype as doubles, a block at a time (one loop per dtype, not per pair).
constexpr int64_t kBlock = 1024;

// `count` elements `stride` apart from `data`, as doubles.
template <class T>
EXPORTLENS_AVX2_CLONE void load_block(const void* data, int64_t stride, int64_t count, double* out) {
  const T* p = static_cast<const T*>(data);
  if (stride == 1) {
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(p[i]);
  } else {
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(p[i * stride]);
  }
}

// A value rounded to To's precision, as c10's conversion rounds it.
template <class From, class To>
inline double rounded(From v) {
  return static_cast<double>(static_cast<To>(v));
}
// float to bfloat16 as c10::BFloat16 rounds it (to nearest, ties to even; a
// NaN to the quiet NaN), without its branch, so that the loop vectorizes.
template <>
inline double rounded<float, c10::BFloat16>(float v) {
  const uint32_t bits = std::bit_cast<uint32_t>(v);
  const uint32_t nearest = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
  // NaN found and chosen with integer masks: GCC turns a float compare or a
  // ?: here into a branch, and the loop stays scalar.
  const uint32_t nan = 0u - uint32_t((bits & 0x7fffffffu) > 0x7f800000u);
  return std::bit_cast<float>((nearest & ~nan) | (0x7fc00000u & nan));
}

// A block of From's elements, already read as doubles, as they would be
// after `.to(To)`: each rounded to To's precision in a register, as ATen's
// copy kernel rounds it (no tensor made). Each double holds a From exactly,
// so casting it back to From first loses nothing.
template <class From, class To>
EXPORTLENS_AVX2_CLONE void reround_block(const double* in, int64_t count, double* out) {
  for (int64_t i = 0; i < count; ++i) out[i] = rounded<From, To>(static_cast<From>(in[i]));
}

using Loader = void (*)(const void*, int64_t, int64_t, double*);

Loader loader_for(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return load_block<float>;
    case at::kDouble: return load_block<double>;
    case at::kHalf: return load_block<c10::Half>;
    case at::kBFloat16: return load_block<c10::BFloat16>;
    case at::kLong: return load_block<int64_t>;
    case at::kInt: return load_block<int32_t>;
    case at::kShort: return load_block<int16_t>;
    case at::kChar: return load_block<int8_t>;
    case at::kByte: return load_block<uint8_t>;
    case at::kBool: return load_block<bool>;
    default: return nullptr;
  }
}

using Rerounder = void (*)(const double*, int64_t, double*);

void same_block(const double* in, int64_t count, double* out) { std::memcpy(out, in, size_t(count) * sizeof(double)); }

template <class From>
Rerounder rerounder_from(at::ScalarType to) {
  switch (to) {
    case at::kFloat: return reround_block<From, float>;
    case at::kDouble: return reround_block<From, double>;
    case at::kHalf: return reround_block<From, c10::Half>;
    case at::kBFloat16: return reround_block<From, c10::BFloat16>;
    default: return nullptr;
  }
}

// A floating dtype's elements as if cast to `to`; the same dtype stays as is.
Rerounder rerounder(at::ScalarType from, at::ScalarType to) {
  if (from == to) return loader_for(from) ? same_block : nullptr;
  switch (from) {
    case at::kFloat: return rerounder_from<float>(to);
    case at::kDouble: return rerounder_from<double>(to);
    case at::kHalf: return rerounder_from<c10::Half>(to);
    case at::kBFloat16: return rerounder_from<c10::BFloat16>(to);
    default: return nullptr;
  }
}

// The order a pair is read in, its dims outermost first, chosen by A's
// tensor: by stride, largest first, so that a value lying on the very
// elements of another (a view, a permute, a split's piece viewed again, an
// expand repeating nothing) is read as the same sequence (same_sequence), and
// a dense one contiguously, in memory order.
at::DimVector natural_order(const at::Tensor& t) {
  at::DimVector order(size_t(t.dim()));
  std::iota(order.begin(), order.end(), int64_t(0));
  return order;
}
at::DimVector read_order(const at::Tensor& t) {
  at::DimVector order = natural_order(t);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return t.stride(x) > t.stride(y); });
  return order;
}

// How a tensor is walked in an order of its dims: dims of size 1 dropped, a
// dim merged into the next where its stride spans it. Two walks alike from one
// address visit the same elements in the same order.
struct Walk {
  at::DimVector sizes, strides;
  Walk(const at::Tensor& t, const at::DimVector& order) {
    for (const int64_t d : order) {
      const int64_t size = t.size(d), stride = t.stride(d);
      if (size == 1) continue;
      if (!sizes.empty() && strides.back() == stride * size) {
        sizes.back() *= size;
        strides.back() = stride;
      } else {
        sizes.push_back(size);
        strides.push_back(stride);
      }
    }
    if (sizes.empty()) sizes.push_back(1), strides.push_back(1);
  }
  bool operator==(const Walk&) const = default;
  // Each element at an address of its own (each dim steps over all of the dims inside it).
  bool one_element_per_address() const {
    if (strides.back() < 1) return false;
    for (size_t d = 0; d + 1 < sizes.size(); ++d)
      if (strides[d] < strides[d + 1] * sizes[d + 1]) return false;
    return true;
  }
};

// A CPU tensor's elements in the given order of its dims, read where they lie:
// a permuted or expanded value is not copied.
class Reader {
 public:
  Reader(const at::Tensor& t, Loader load, const at::DimVector& order)
      : base_(static_cast<const char*>(t.const_data_ptr())), item_(int64_t(t.element_size())), load_(load),
        walk_(t, order) {
    index_.assign(walk_.sizes.size(), 0);
  }

  void read(int64_t count, double* out) {
    const at::DimVector &sizes = walk_.sizes, &strides = walk_.strides;
    const size_t inner = sizes.size() - 1;
    while (count > 0) {
      const int64_t n = std::min(count, sizes[inner] - index_[inner]);
      load_(base_ + (offset_ + index_[inner] * strides[inner]) * item_, strides[inner], n, out);
      out += n, count -= n;
      index_[inner] += n;
      if (index_[inner] < sizes[inner]) continue;
      index_[inner] = 0;  // the next row: carry into the outer dims
      for (size_t d = inner; d-- > 0;) {
        offset_ += strides[d];
        if (++index_[d] < sizes[d]) break;
        offset_ -= strides[d] * sizes[d];
        index_[d] = 0;
      }
    }
  }

 private:
  const char* base_;
  int64_t item_;
  Loader load_;
  Walk walk_;
  at::DimVector index_;
  int64_t offset_ = 0;  // of the current row, in elements
};

// Sums over every tensor pair of a value, folded into ErrorStats at the end.
// CPU tensors are read in one pass over their elements (a numerics run
// compares thousands of small values: a dozen kernel launches each would cost
// more than the program); other devices go through ATen.
struct Accumulator {
  int64_t elements = 0;
  double max_abs = 0, max_rel = 0, sum_sq_diff = 0, sum_sq_a = 0, sum_sq_b = 0, dot = 0;
  int64_t nan_a = 0, inf_a = 0, nan_b = 0, inf_b = 0;
  bool finiteness_differs = false;
  bool beyond = false;
  runtime::Tolerance tol{0, 0};

  void widen_tolerance(at::ScalarType a, at::ScalarType b) {
    const runtime::Tolerance ta = runtime::default_tolerance(a), tb = runtime::default_tolerance(b);
    tol = {std::max({tol.rtol, ta.rtol, tb.rtol}), std::max({tol.atol, ta.atol, tb.atol})};
  }

  bool add(const at::Tensor& a_in, const at::Tensor& b_in) {
    if (a_in.sizes() != b_in.sizes()) return false;
    widen_tolerance(a_in.scalar_type(), b_in.scalar_type());
    elements += a_in.numel();
    if (a_in.numel() == 0) return true;
    const Loader la = loader_for(a_in.scalar_type()), lb = loader_for(b_in.scalar_type());
    if (la && lb && a_in.device().is_cpu() && b_in.device().is_cpu()) {
      add_cpu(a_in, la, b_in, lb);
    } else {
      add_aten(a_in, b_in);
    }
    return true;
  }

  void add_cpu(const at::Tensor& a, Loader la, const at::Tensor& b, Loader lb) {
    double xa[kBlock], xb[kBlock];
    const int64_t n = a.numel();
    if (n == 0) return;
    const at::DimVector order = read_order(a);
    Reader ra(a, la, order), rb(b, lb, order);
    for (int64_t first = 0; first < n; first += kBlock) {
      const int64_t count = std::min(kBlock, n - first);
      ra.read(count, xa);
      rb.read(count, xb);
      fold_block(xa, xb, count);
    }
  }

  // `a` against another CPU tensor of its shape, folded into `error` as add() folds it.
  struct AlsoAgainst {
    Accumulator& error;
    const at::Tensor& b;
    Loader lb;
  };

  // A CPU tensor `a` against itself cast to `to` (error_stats(a, a.to(to)),
  // to the bit); with `also`, `a` against its `b` too, in the same pass over `a`.
  void add_rounding(const at::Tensor& a, Loader la, at::ScalarType to, Rerounder reround,
                    const AlsoAgainst* also = nullptr) {
    widen_tolerance(a.scalar_type(), to);
    elements += a.numel();
    if (also) {
      also->error.widen_tolerance(a.scalar_type(), also->b.scalar_type());
      also->error.elements += a.numel();
    }
    double xa[kBlock], xb[kBlock], xr[kBlock];
    const int64_t n = a.numel();
    if (n == 0) return;
    const at::DimVector order = read_order(a);
    Reader ra(a, la, order);
    std::optional<Reader> rb;
    if (also) rb.emplace(also->b, also->lb, order);
    for (int64_t first = 0; first < n; first += kBlock) {
      const int64_t count = std::min(kBlock, n - first);
      ra.read(count, xa);
      if (rb) {
        rb->read(count, xb);
        also->error.fold_block(xa, xb, count);
      }
      reround(xa, count, xr);
      fold_block(xa, xr, count);
    }
  }

  void fold_block(const double* xa, const double* xb, int64_t count) {
    if (!finite_pairs(xa, xb, count))
      for (int64_t i = 0; i < count; ++i) element(xa[i], xb[i]);
  }

  // The common case, a block with no NaN or Inf, with no branch per element:
  // four lanes of partial sums and maxima, folded at the end (the order of a
  // float sum is ours to pick). Whether the block is finite is found in the
  // same pass (x * 0 is 0 for finite x, NaN for NaN and Inf); if it is not,
  // nothing is folded and false says to read it element by element. The
  // lanes are explicit vectors: written as four scalars, they stayed scalar.
  EXPORTLENS_AVX2_CLONE bool finite_pairs(const double* a, const double* b, int64_t count) {
    Lanes mx{}, rel{}, sd{}, sa{}, sb{}, ab{}, over{}, nonfinite{};
    const Lanes atol = splat(tol.atol), rtol = splat(tol.rtol), one = splat(1.0), zeros{};
    int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
      Lanes x, y;
      std::memcpy(&x, a + i, sizeof x);
      std::memcpy(&y, b + i, sizeof y);
      const Lanes d = abs(y - x), ax = abs(x);
      nonfinite += x * zeros + y * zeros;  // 0 where finite, NaN for NaN and Inf
      mx = max(mx, d);
      const LaneMask positive = ax > zeros;
      rel = max(rel, select(positive, d / select(positive, ax, one), zeros));  // d / ax where ax > 0: no branch
      sd += d * d, sa += x * x, sb += y * y, ab += x * y;
      over = max(over, select(d > atol + rtol * ax, one, zeros));
    }
    for (int k = 0; k < 4; ++k)
      if (nonfinite[k] != 0) return false;
    for (int64_t j = i; j < count; ++j)
      if (!std::isfinite(a[j]) || !std::isfinite(b[j])) return false;
    for (; i < count; ++i) element(a[i], b[i]);
    for (int k = 0; k < 4; ++k) {
      max_abs = std::max(max_abs, mx[k]);
      max_rel = std::max(max_rel, rel[k]);
      sum_sq_diff += sd[k], sum_sq_a += sa[k], sum_sq_b += sb[k], dot += ab[k];
      beyond = beyond || over[k] > 0;
    }
    return true;
  }

  void element(double a, double b) {
    const bool fa = std::isfinite(a), fb = std::isfinite(b);
    if (!fa) std::isnan(a) ? ++nan_a : ++inf_a;
    if (!fb) std::isnan(b) ? ++nan_b : ++inf_b;
    if (!fa || !fb) {
      // Unbounded error unless both are the same non-finite value (NaN with NaN, +Inf with +Inf).
      if (fa != fb || !((std::isnan(a) && std::isnan(b)) || a == b)) finiteness_differs = true;
      return;
    }
    const double d = std::abs(b - a);
    max_abs = std::max(max_abs, d);
    if (a != 0) max_rel = std::max(max_rel, d / std::abs(a));
    sum_sq_diff += d * d;
    sum_sq_a += a * a;
    sum_sq_b += b * b;
    dot += a * b;
    if (d > tol.atol + tol.rtol * std::abs(a)) beyond = true;
  }

  void add_aten(const at::Tensor& a_in, const at::Tensor& b_in) {
    const at::Tensor a = a_in.to(at::kDouble);
    const at::Tensor b = b_in.to(a.device(), at::kDouble);
    const at::Tensor fa = a.isfinite(), fb = b.isfinite();
    nan_a += a.isnan().sum().item<int64_t>();
    nan_b += b.isnan().sum().item<int64_t>();
    inf_a += a.isinf().sum().item<int64_t>();
    inf_b += b.isinf().sum().item<int64_t>();
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

std::optional<ErrorStats> rounding_stats(const at::Tensor& a, c10::ScalarType to) {
  if (!a.defined() || !a.device().is_cpu()) return std::nullopt;
  const Loader la = loader_for(a.scalar_type());
  const Rerounder reround = rerounder(a.scalar_type(), to);
  if (!la || !reround) return std::nullopt;
  Accumulator rounding;
  rounding.add_rounding(a, la, to, reround);
  return rounding.stats();
}

std::optional<std::pair<ErrorStats, ErrorStats>> error_and_rounding_stats(const at::Tensor& a, const at::Tensor& b,
                                                                          c10::ScalarType to) {
  if (!a.defined() || !b.defined() || !a.device().is_cpu() || !b.device().is_cpu() || a.sizes() != b.sizes())
    return std::nullopt;
  const Loader la = loader_for(a.scalar_type()), lb = loader_for(b.scalar_type());
  const Rerounder reround = rerounder(a.scalar_type(), to);
  if (!la || !lb || !reround) return std::nullopt;
  Accumulator error, rounding;
  const Accumulator::AlsoAgainst also{error, b, lb};
  rounding.add_rounding(a, la, to, reround, &also);
  return std::pair{error.stats(), rounding.stats()};
}

bool same_sequence(const at::Tensor& x, const at::Tensor& y, bool keeps_order) {
  if (!streamed(x) || !streamed(y) || x.scalar_type() != y.scalar_type() || x.numel() != y.numel()) return false;
  const Walk wx(x, read_order(x)), wy(y, read_order(y));
  // The same elements (no two of them at one address), walked alike.
  if (x.const_data_ptr() == y.const_data_ptr() && wx == wy && wx.one_element_per_address()) return true;
  if (!keeps_order) return false;
  // Each read row-major (the order the op keeps), or the op's identity laid out alike.
  const auto row_major = [](const at::Tensor& t, const Walk& w) { return w == Walk(t, natural_order(t)); };
  if (row_major(x, wx) && row_major(y, wy)) return true;
  return x.sizes() == y.sizes() && x.strides() == y.strides();
}

bool streamed(const at::Tensor& t) { return t.defined() && t.device().is_cpu() && loader_for(t.scalar_type()); }
bool streamed(c10::ScalarType dtype) { return loader_for(dtype) != nullptr; }

bool all_finite(const c10::IValue& v) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    if (!t.defined() || !t.is_floating_point() || t.numel() == 0) return true;
    const Loader load = loader_for(t.scalar_type());
    if (!load || !t.device().is_cpu()) return t.isfinite().all().item<bool>();
    Reader reader(t, load, read_order(t));
    double x[kBlock];
    for (int64_t first = 0; first < t.numel(); first += kBlock) {
      const int64_t count = std::min(kBlock, t.numel() - first);
      reader.read(count, x);
      double zero[4] = {};  // x * 0: 0 for finite x, NaN for NaN and Inf (four lanes, no branch)
      int64_t i = 0;
      for (; i + 4 <= count; i += 4)
        for (int k = 0; k < 4; ++k) zero[k] += x[i + k] * 0.0;
      if (!(zero[0] == 0 && zero[1] == 0 && zero[2] == 0 && zero[3] == 0)) return false;
      for (; i < count; ++i)
        if (!std::isfinite(x[i])) return false;
    }
    return true;
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

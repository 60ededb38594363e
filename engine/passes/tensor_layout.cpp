#include "engine/passes/tensor_layout.h"

#include <algorithm>
#include <numeric>

namespace exportlens::passes {

// ---- hints --------------------------------------------------------------------

void Hints::learn(const ir::SymInt& s) {
  if (s.expr.is_symbol() && s.hint) values_.emplace(s.expr.symbol_name(), *s.hint);
}

void Hints::learn(const ir::TensorMeta& t) {
  for (const auto& s : t.sizes) learn(s);
  for (const auto& s : t.strides) learn(s);
}

std::optional<int64_t> Hints::of(const Expr& e) const {
  if (auto v = e.as_integer()) return v;
  return e.evaluate(values_);
}

namespace {
std::optional<int64_t> value_of(const ir::SymInt& s, const Hints& h) {
  if (auto v = s.expr.as_integer()) return v;
  if (s.hint) return s.hint;
  return h.of(s.expr);
}
}  // namespace

bool Hints::eq(const ir::SymInt& a, const ir::SymInt& b) const {
  if (a.expr == b.expr) return true;
  const auto va = value_of(a, *this), vb = value_of(b, *this);
  return va && vb && *va == *vb;
}

bool Hints::lt(const ir::SymInt& a, const ir::SymInt& b) const {
  const auto va = value_of(a, *this), vb = value_of(b, *this);
  if (va && vb) return *va < *vb;
  const auto diff = (b.expr - a.expr).as_integer();
  return diff && *diff > 0;
}

ir::SymInt sym_mul(const ir::SymInt& a, const ir::SymInt& b) {
  if (auto x = a.expr.as_integer())  // the common case, without building an expression
    if (auto y = b.expr.as_integer()) return ir::SymInt(*x * *y);
  std::optional<int64_t> h;
  if (a.hint && b.hint) h = *a.hint * *b.hint;
  return ir::SymInt(a.expr * b.expr, h);
}

ir::SymInt sym_add(const ir::SymInt& a, const ir::SymInt& b) {
  if (auto x = a.expr.as_integer())
    if (auto y = b.expr.as_integer()) return ir::SymInt(*x + *y);
  std::optional<int64_t> h;
  if (a.hint && b.hint) h = *a.hint + *b.hint;
  return ir::SymInt(a.expr + b.expr, h);
}

// ---- layouts --------------------------------------------------------------------

namespace {
ir::SymInt at_least_one(const ir::SymInt& s) {
  if (auto v = s.expr.as_integer(); v && *v == 0) return ir::SymInt(int64_t{1});
  return s;
}
}  // namespace

Dims contiguous_strides(const Dims& sizes) {
  Dims strides(sizes.size());
  ir::SymInt running(int64_t{1});
  for (size_t k = sizes.size(); k-- > 0;) {
    strides[k] = running;
    running = sym_mul(running, at_least_one(sizes[k]));
  }
  return strides;
}

bool is_contiguous(const Dims& sizes, const Dims& strides, const Hints& h) {
  if (sizes.size() != strides.size()) return false;
  ir::SymInt expected(int64_t{1});
  for (size_t k = sizes.size(); k-- > 0;) {
    if (h.eq(sizes[k], ir::SymInt(int64_t{1}))) continue;
    if (!h.eq(strides[k], expected)) return false;
    expected = sym_mul(expected, sizes[k]);
  }
  return true;
}

bool is_non_overlapping_and_dense(const Dims& sizes, const Dims& strides, const Hints& h) {
  if (sizes.size() != strides.size()) return false;
  if (is_contiguous(sizes, strides, h)) return true;
  std::vector<size_t> perm(sizes.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (h.eq(sizes[a], ir::SymInt(int64_t{1}))) return false;
    if (h.eq(sizes[b], ir::SymInt(int64_t{1}))) return true;
    return h.lt(strides[a], strides[b]);
  });
  ir::SymInt expected(int64_t{1});
  for (size_t i : perm) {
    if (h.eq(sizes[i], ir::SymInt(int64_t{1}))) continue;
    if (!h.eq(strides[i], expected)) return false;
    expected = sym_mul(expected, sizes[i]);
  }
  return true;
}

std::optional<Dims> view_strides(const Dims& sizes, const Dims& strides, const Dims& new_sizes, const Hints& h) {
  const ir::SymInt one(int64_t{1});
  if (sizes.empty()) return Dims(new_sizes.size(), one);
  ir::SymInt numel = one;
  for (const auto& s : sizes) numel = sym_mul(numel, s);
  const bool zero_numel = h.eq(numel, ir::SymInt(int64_t{0}));
  if (zero_numel) {
    bool same = sizes.size() == new_sizes.size();
    for (size_t i = 0; same && i < sizes.size(); ++i) same = sizes[i] == new_sizes[i];
    if (same) return strides;
    return contiguous_strides(new_sizes);
  }
  Dims out(new_sizes.size());
  int64_t view_d = int64_t(new_sizes.size()) - 1;
  ir::SymInt chunk_base_stride = strides.back();
  ir::SymInt tensor_numel = one, view_numel = one;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel = sym_mul(tensor_numel, sizes[d]);
    const bool chunk_ends = d == 0 || (!h.eq(sizes[d - 1], one) &&
                                       !h.eq(strides[d - 1], sym_mul(tensor_numel, chunk_base_stride)));
    if (!chunk_ends) continue;
    while (view_d >= 0 && (h.lt(view_numel, tensor_numel) || h.eq(new_sizes[view_d], one))) {
      out[view_d] = sym_mul(view_numel, chunk_base_stride);
      view_numel = sym_mul(view_numel, new_sizes[view_d]);
      --view_d;
    }
    if (!h.eq(view_numel, tensor_numel)) return std::nullopt;
    if (d > 0) {
      chunk_base_stride = strides[d - 1];
      tensor_numel = one;
      view_numel = one;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Dims elementwise_strides(const Dims& out_sizes, const std::vector<const ir::TensorMeta*>& operands,
                         const Hints& h) {
  const size_t ndim = out_sizes.size();
  if (ndim <= 1) return contiguous_strides(out_sizes);
  const ir::SymInt zero(int64_t{0}), one(int64_t{1});
  // Each operand broadcast to the result's shape: missing and size-1 dims get stride 0.
  std::vector<Dims> strides;
  bool all_contiguous = true;
  for (const ir::TensorMeta* t : operands) {
    if (!t || t->rank() == 0) continue;  // scalars do not order dimensions
    Dims s(ndim, zero);
    const size_t offset = ndim - std::min(ndim, t->rank());
    bool same_shape = t->rank() == ndim;
    for (size_t i = 0; i < t->rank() && i < ndim; ++i) {
      const bool broadcast = h.eq(t->sizes[i], one) && !h.eq(out_sizes[offset + i], one);
      same_shape = same_shape && !broadcast;
      s[offset + i] = broadcast || i >= t->strides.size() ? zero : t->strides[i];
    }
    all_contiguous = all_contiguous && same_shape && is_contiguous(t->sizes, t->strides, h);
    strides.push_back(std::move(s));
  }
  if (all_contiguous) return contiguous_strides(out_sizes);

  auto should_swap = [&](size_t a, size_t b) {
    for (const Dims& s : strides) {
      if (h.eq(s[a], zero) || h.eq(s[b], zero)) continue;
      if (h.lt(s[a], s[b])) return -1;
      if (h.lt(s[b], s[a])) return 1;
      if (h.lt(out_sizes[b], out_sizes[a])) return 1;
    }
    return 0;
  };
  std::vector<size_t> perm(ndim);  // fastest dimension first
  for (size_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  for (size_t i = 1; i < ndim; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Dims out(ndim);
  ir::SymInt running = one;
  for (size_t d : perm) {
    out[d] = running;
    running = sym_mul(running, at_least_one(out_sizes[d]));
  }
  return out;
}

Dims preserve_format_strides(const ir::TensorMeta& t, const Hints& h) {
  if (t.strides.size() == t.sizes.size() && is_non_overlapping_and_dense(t.sizes, t.strides, h)) return t.strides;
  return elementwise_strides(t.sizes, {&t}, h);
}

bool sdpa_takes_cpu_flash_path(const ir::TensorMeta& q, const ir::TensorMeta& k, const ir::TensorMeta& v,
                               const ir::TensorMeta* mask, double dropout_p, const Hints& h) {
  if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4 || dropout_p != 0.0) return false;
  if (k.dtype != q.dtype || v.dtype != q.dtype) return false;
  const ir::SymInt one(int64_t{1});
  if (mask) {  // check_attn_mask_shape: (L or 1, S or 1) last, and 2-D, or 4-D over (N or 1, H or 1)
    const size_t r = mask->rank();
    if (r < 2) return false;
    const auto either = [&](const ir::SymInt& size, const ir::SymInt& want) { return h.eq(size, want) || h.eq(size, one); };
    if (!either(mask->sizes[r - 2], q.sizes[2]) || !either(mask->sizes[r - 1], k.sizes[2])) return false;
    if (r == 4 ? !either(mask->sizes[0], q.sizes[0]) || !either(mask->sizes[1], q.sizes[1]) : r != 2) return false;
  }
  // check_head_dim_size_cpp: one head size for query, key and value
  if (!h.eq(q.sizes[3], k.sizes[3]) || !h.eq(q.sizes[3], v.sizes[3])) return false;
  // check_last_dim_stride_equals_1_dense (a head size of 1 makes the stride irrelevant)
  const auto unit_last_stride = [&](const ir::TensorMeta& t) {
    return t.strides.size() != 4 || h.eq(t.strides[3], one);
  };
  return h.eq(q.sizes[3], one) || (unit_last_stride(q) && unit_last_stride(k) && unit_last_stride(v));
}

Dims attention_output_strides(const ir::TensorMeta& q, const ir::TensorMeta& k, const ir::TensorMeta& v,
                              const ir::TensorMeta* mask, double dropout_p, const Dims& out_sizes, const Hints& h) {
  if (!sdpa_takes_cpu_flash_path(q, k, v, mask, dropout_p, h) || q.sizes != out_sizes) return contiguous_strides(out_sizes);
  return preserve_format_strides(q, h);
}

bool suggests_channels_last(const ir::TensorMeta& t, const Hints& h) {
  if (t.rank() != 4 || t.strides.size() != 4) return false;
  const ir::SymInt zero(int64_t{0});
  if (h.eq(t.strides[1], zero)) return false;
  ir::SymInt min = zero;
  for (size_t d : {size_t{1}, size_t{3}, size_t{2}, size_t{0}}) {
    if (h.eq(t.sizes[d], zero) || h.lt(t.strides[d], min)) return false;
    if (d == 0 && h.eq(min, t.strides[1])) return false;
    min = h.eq(t.sizes[d], ir::SymInt(int64_t{1})) ? t.strides[d] : sym_mul(t.strides[d], t.sizes[d]);
  }
  return true;
}

Dims channels_last_strides(const Dims& sizes) {
  if (sizes.size() != 4) return contiguous_strides(sizes);
  const ir::SymInt one(int64_t{1});
  const ir::SymInt c = sizes[1];
  const ir::SymInt wc = sym_mul(sizes[3], c);
  return {sym_mul(sizes[2], wc), one, wc, c};
}

Dims convolution_output_strides(const ir::TensorMeta& input, const ir::TensorMeta* weight, const Dims& out_sizes,
                                const Hints& h) {
  if (out_sizes.size() == 4 && (suggests_channels_last(input, h) || (weight && suggests_channels_last(*weight, h))))
    return channels_last_strides(out_sizes);
  return contiguous_strides(out_sizes);
}

ir::TensorMeta contiguous_meta(const Dims& sizes, ir::ScalarType dtype, const ir::Device& device) {
  ir::TensorMeta m;
  m.dtype = dtype;
  m.sizes = sizes;
  m.strides = contiguous_strides(sizes);
  m.device = device;
  return m;
}

}  // namespace exportlens::passes

// Convolution, pooling and upsampling output sizes:
//   conv:       (in + 2*pad - dilation*(k - 1) - 1) // stride + 1
//   transposed: (in - 1)*stride - 2*pad + dilation*(k - 1) + output_padding + 1
//   pooling:    the same as conv, with torch's ceil_mode correction.
//   upsampling: the output size given, or the input size times a whole scale factor.
// With them, the guards torch's fake conv and pooling metas make, in their order:
// the input against the kernel (check_shape_forward), the memory-format
// conversion of the output (fake_impls.conv), the output-size checks.
#include <cmath>

#include "engine/ops/rule_helpers.h"
#include "engine/symbolic/contiguity_probe.h"

namespace exportlens::ops {

namespace {

/// A per-spatial-dim parameter: a list, or one value repeated (empty: fallback).
std::vector<Expr> spatial(RuleContext& ctx, size_t index, std::string_view name, size_t n, int64_t fallback) {
  std::vector<Expr> v;
  if (ctx.has(index, name)) {
    const SymValue s = ctx.value(index, name);
    if (s.kind == SymValue::Kind::Int) v.assign(n, s.scalar);
    else if (s.kind == SymValue::Kind::List)
      for (const auto& item : s.items) v.push_back(item.scalar);
  }
  if (v.empty()) v.assign(n, Expr(fallback));
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n) throw RuleError("node " + ctx.node.name + ": expected " + std::to_string(n) + " values for " +
                                     std::string(name));
  return v;
}

Expr conv_out(const Expr& in, const Expr& k, const Expr& s, const Expr& p, const Expr& d) {
  return Expr::floordiv(in + Expr(2) * p - d * (k - Expr(1)) - Expr(1), s) + Expr(1);
}

/// check_shape_forward (Convolution.cpp, called by _select_conv_backend in
/// torch's fake conv): each padded input size against its dilated kernel,
/// `guard_or_false(in + 2*pad < dilation*(k - 1) + 1)` per spatial dim in
/// order, so an undecided one records `in + 2*pad >= dilation*(k - 1) + 1`
/// (an 8 x 8 kernel: h >= 8, then w >= 8).
void check_kernel_fits(RuleContext& ctx, const std::vector<Expr>& in, const std::vector<Expr>& k,
                       const std::vector<Expr>& pad, const std::vector<Expr>& dil) {
  for (size_t i = 0; i < in.size(); ++i) {
    const Expr padded = ctx.simplify(in[i] + Expr(2) * pad[i]), kernel = ctx.simplify(dil[i] * (k[i] - Expr(1)) + Expr(1));
    if (ctx.guard_or_false(Expr::lt(padded, kernel), "convolution: input size >= kernel size (check_shape_forward)"))
      throw symbolic::CheckFailedError(Expr::ge(padded, kernel), ctx.origin("convolution: input size >= kernel size"),
                                       "Calculated padded input size per channel: (" + padded.str() + "). Kernel size: (" +
                                           kernel.str() + "). Kernel size can't be greater than actual input size");
  }
}

/// Whether torch's fake conv converted this node's output to channels-last
/// (fake_impls.conv: `.to(memory_format=...)` of the memory format the CPU
/// backend picks, channels-last when the input or weight suggests it). The
/// file's strides of the node say which it picked: channel stride 1.
bool recorded_channels_last(const ir::Node& n) {
  const ir::TensorMeta* m = n.value.tensor();
  if (!m || (m->rank() != 4 && m->rank() != 5) || m->strides.size() != m->rank()) return false;
  return m->strides[1].expr == Expr(1) && !(m->strides.back().expr == Expr(1));
}

/// The conversion's checks: the meta's output is contiguous, with strides
/// `stride[i + 1] * Max(size[i + 1], 1)` (empty_tensor_restride), and
/// `_to_copy` asks whether it is non-overlapping and dense before it clones
/// it channels-last: the stride-order checks `Max(1, w // 32) >= Max(1, h //
/// 32)*Max(1, w // 32)`, ... of a stride-32 conv.
void convert_to_channels_last(RuleContext& ctx, const std::vector<Expr>& out) {
  symbolic::Strides strides(out.size(), Expr(1));
  for (size_t i = out.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * Expr::max(out[i + 1], Expr(1));
  symbolic::non_overlapping_and_dense_or_false(ctx.env, out, strides,
                                               ctx.origin("convolution: channels-last output (is_non_overlapping_and_dense)"));
}

SymValue convolution_impl(RuleContext& ctx, bool transposed, size_t groups_index, size_t out_pad_index) {
  const SymTensor x = ctx.tensor(0, "input"), w = ctx.tensor(1, "weight");
  if (w.rank() < 3) throw RuleError("convolution: weight must be at least 3-D");
  const size_t n = w.rank() - 2;
  const bool batched = x.rank() == n + 2;
  if (!batched && x.rank() != n + 1) throw RuleError("convolution: input rank does not match the weight");
  const Expr groups = groups_index == SIZE_MAX ? Expr(1) : ctx.integer_or(groups_index, "groups", 1);
  const std::vector<Expr> stride = spatial(ctx, 3, "stride", n, 1);
  // conv2d.padding(..., str padding) : "same" keeps the size (stride 1), "valid" is 0.
  std::vector<Expr> pad;
  bool same = false;
  if (const ir::Argument* a = ctx.arg(4, "padding"); a && std::holds_alternative<std::string>(a->v)) {
    same = std::get<std::string>(a->v) == "same";
    pad.assign(n, Expr(0));
  } else {
    pad = spatial(ctx, 4, "padding", n, 0);
  }
  const std::vector<Expr> dil = spatial(ctx, 5, "dilation", n, 1);
  const size_t c = batched ? 1 : 0;
  const Expr in_channels = x.sizes[c];
  std::vector<Expr> out;
  if (batched) out.push_back(x.sizes[0]);
  if (!transposed) {
    ctx.check_equal(in_channels, ctx.simplify(w.sizes[1] * groups), "convolution: input channels == weight.size(1) * groups",
                    [&] {
                      return "expected input to have " + (w.sizes[1] * groups).str() + " channels, got " +
                             in_channels.str();
                    });
    // padding="same" pads to keep the size: the kernel always fits.
    if (!same)
      check_kernel_fits(ctx, std::vector<Expr>(x.sizes.begin() + long(c + 1), x.sizes.end()),
                        std::vector<Expr>(w.sizes.begin() + 2, w.sizes.end()), pad, dil);
    out.push_back(w.sizes[0]);
    for (size_t i = 0; i < n; ++i) {
      const Expr in = x.sizes[c + 1 + i], k = w.sizes[2 + i];
      out.push_back(ctx.simplify(same ? in : conv_out(in, k, stride[i], pad[i], dil[i])));
    }
  } else {
    ctx.check_equal(in_channels, w.sizes[0], "conv_transpose: input channels == weight.size(0)");
    out.push_back(ctx.simplify(w.sizes[1] * groups));
    const std::vector<Expr> opad = out_pad_index == SIZE_MAX ? std::vector<Expr>(n, Expr(0))
                                                             : spatial(ctx, out_pad_index, "output_padding", n, 0);
    for (size_t i = 0; i < n; ++i) {
      const Expr in = x.sizes[c + 1 + i], k = w.sizes[2 + i];
      out.push_back(ctx.simplify((in - Expr(1)) * stride[i] - Expr(2) * pad[i] + dil[i] * (k - Expr(1)) + opad[i] + Expr(1)));
    }
  }
  if (batched && recorded_channels_last(ctx.node)) convert_to_channels_last(ctx, out);
  return shaped(out, x.dtype);
}

SymValue convolution(RuleContext& ctx) {
  const bool transposed = ctx.boolean_or(6, "transposed", false);
  return convolution_impl(ctx, transposed, 8, 7);
}
SymValue conv_nd(RuleContext& ctx) { return convolution_impl(ctx, false, 6, SIZE_MAX); }
SymValue conv_transpose_nd(RuleContext& ctx) {
  // conv_transposeNd(input, weight, bias, stride, padding, output_padding, groups, dilation)
  const SymTensor x = ctx.tensor(0, "input"), w = ctx.tensor(1, "weight");
  const size_t n = w.rank() - 2;
  const bool batched = x.rank() == n + 2;
  const size_t c = batched ? 1 : 0;
  const std::vector<Expr> stride = spatial(ctx, 3, "stride", n, 1), pad = spatial(ctx, 4, "padding", n, 0);
  const std::vector<Expr> opad = spatial(ctx, 5, "output_padding", n, 0), dil = spatial(ctx, 7, "dilation", n, 1);
  const Expr groups = ctx.integer_or(6, "groups", 1);
  ctx.check_equal(x.sizes[c], w.sizes[0], "conv_transpose: input channels == weight.size(0)");
  std::vector<Expr> out;
  if (batched) out.push_back(x.sizes[0]);
  out.push_back(ctx.simplify(w.sizes[1] * groups));
  for (size_t i = 0; i < n; ++i)
    out.push_back(ctx.simplify((x.sizes[c + 1 + i] - Expr(1)) * stride[i] - Expr(2) * pad[i] +
                               dil[i] * (w.sizes[2 + i] - Expr(1)) + opad[i] + Expr(1)));
  return shaped(out, x.dtype);
}

Expr pool_out(RuleContext& ctx, const Expr& in, const Expr& k, const Expr& s, const Expr& p, const Expr& d, bool ceil) {
  Expr out = ctx.floordiv(in + Expr(2) * p - d * (k - Expr(1)) - Expr(1) + (ceil ? s - Expr(1) : Expr(0)), s) + Expr(1);
  if (ceil && ctx.eval(Expr::ge((out - Expr(1)) * s, in + p), "pool: ceil_mode drops a window starting in the padding"))
    out = out - Expr(1);
  return ctx.simplify(out);
}

/// The pooling metas' size checks (pool2d_shape_check, pool3d_shape_check),
/// one torch._check over all spatial dims each: average pooling in 3-D checks
/// the input against the kernel; every output size must be at least 1. In
/// 1-D, avg_pool1d and max_pool1d_with_indices run the 2-D meta on a height
/// of 1 (max_pool1d checks its own sizes: see max_pool1d below).
void check_pool_sizes(RuleContext& ctx, const std::vector<Expr>& in, const std::vector<Expr>& k,
                      const std::vector<Expr>& out, bool average, bool with_indices) {
  if (in.size() == 3 && average)
    ctx.check(Expr::logical_and({Expr::ge(in[0], k[0]), Expr::ge(in[1], k[1]), Expr::ge(in[2], k[2])}),
              "avg_pool3d: input size >= kernel size (pool3d_shape_check)", "input image smaller than kernel size");
  if (out.size() == 1 && !average && !with_indices) return;
  std::vector<Expr> terms;
  for (const Expr& o : out) terms.push_back(Expr::ge(o, Expr(1)));
  ctx.check(Expr::logical_and(std::move(terms)), "pool: output size >= 1 (pool_shape_check)", "Output size is too small");
}

SymValue pool_impl(RuleContext& ctx, size_t n, bool with_dilation, bool with_indices) {
  const SymTensor x = ctx.tensor(0, "self");
  const std::vector<Expr> k = spatial(ctx, 1, "kernel_size", n, 1);
  std::vector<Expr> s = spatial(ctx, 2, "stride", n, 0);
  if (ctx.simplify(s[0]) == Expr(0)) s = k;  // stride=[] means kernel_size
  const std::vector<Expr> p = spatial(ctx, 3, "padding", n, 0);
  const std::vector<Expr> d = with_dilation ? spatial(ctx, 4, "dilation", n, 1) : std::vector<Expr>(n, Expr(1));
  const bool ceil = ctx.boolean_or(with_dilation ? 5 : 4, "ceil_mode", false);
  std::vector<Expr> out(x.sizes.begin(), x.sizes.end() - long(n));
  for (size_t i = 0; i < n; ++i) out.push_back(pool_out(ctx, x.sizes[x.rank() - n + i], k[i], s[i], p[i], d[i], ceil));
  check_pool_sizes(ctx, std::vector<Expr>(x.sizes.end() - long(n), x.sizes.end()), k,
                   std::vector<Expr>(out.end() - long(n), out.end()), !with_dilation, with_indices);
  if (!with_indices) return shaped(out, x.dtype);
  return SymValue::list({shaped(out, x.dtype), shaped(out, ir::ScalarType::Long)});
}

/// max_pool1d's own size check (check_max_pool1d) reads the length as an int
/// (guard_int): the length specializes to its size.
SymValue max_pool1d(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "self");
  if (x.rank() >= 2) ctx.env.specialize(x.sizes.back(), ctx.origin("max_pool1d: the length read as an int"));
  return pool_impl(ctx, 1, true, false);
}
SymValue max_pool2d(RuleContext& ctx) { return pool_impl(ctx, 2, true, false); }
SymValue max_pool3d(RuleContext& ctx) { return pool_impl(ctx, 3, true, false); }
SymValue max_pool2d_idx(RuleContext& ctx) { return pool_impl(ctx, 2, true, true); }
SymValue max_pool3d_idx(RuleContext& ctx) { return pool_impl(ctx, 3, true, true); }
SymValue max_pool1d_idx(RuleContext& ctx) { return pool_impl(ctx, 1, true, true); }
SymValue avg_pool1d(RuleContext& ctx) { return pool_impl(ctx, 1, false, false); }
SymValue avg_pool2d(RuleContext& ctx) { return pool_impl(ctx, 2, false, false); }
SymValue avg_pool3d(RuleContext& ctx) { return pool_impl(ctx, 3, false, false); }

SymValue adaptive_pool(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "self");
  const std::vector<Expr> size = ctx.integers(1, "output_size");
  std::vector<Expr> out(x.sizes.begin(), x.sizes.end() - long(size.size()));
  out.insert(out.end(), size.begin(), size.end());
  return shaped(out, x.dtype);
}

SymValue adaptive_max_pool(RuleContext& ctx) {
  SymValue v = adaptive_pool(ctx);
  SymValue idx = v;
  idx.tensor.dtype = ir::ScalarType::Long;
  return SymValue::list({v, idx});
}

/// The .vec overloads' scale_factors (after align_corners for the
/// interpolating modes): each spatial size becomes sym_int(sym_float(size) *
/// scale) as torch's upsample_compute_output_size computes it, which sympy
/// keeps an integer k*size for a whole scale k. A fractional scale of a
/// symbolic size is not modelled (its rounding is a float expression).
std::optional<std::vector<Expr>> scaled_sizes(RuleContext& ctx, const SymTensor& x) {
  const bool interpolating = ctx.node.target.op_name().find("nearest") == std::string::npos;
  const ir::Argument* a = ctx.arg(interpolating ? 3 : 2, "scale_factors");
  const ir::ArgumentList* scales = a ? a->list() : nullptr;
  if (!scales || scales->items.empty() || scales->items.size() > x.rank()) return std::nullopt;
  std::vector<Expr> out;
  const size_t first = x.rank() - scales->items.size();
  for (size_t i = 0; i < scales->items.size(); ++i) {
    const double* scale = std::get_if<double>(&scales->items[i].v);
    if (!scale || !(*scale > 0)) return std::nullopt;
    const Expr& size = x.sizes[first + i];
    if (auto n = size.as_integer()) {
      out.push_back(Expr(int64_t(std::floor(double(*n) * *scale))));
    } else if (std::floor(*scale) == *scale && *scale < 1e9) {
      out.push_back(ctx.simplify(Expr(int64_t(*scale)) * size));
    } else {
      return std::nullopt;
    }
  }
  return out;
}

SymValue upsample(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "self");
  auto size = ctx.optional_integers(1, "output_size");
  if (!size) size = scaled_sizes(ctx, x);
  if (!size) throw RuleError("node " + ctx.node.name + ": upsampling of a symbolic size by a fractional scale is not modelled");
  std::vector<Expr> out(x.sizes.begin(), x.sizes.end() - long(size->size()));
  out.insert(out.end(), size->begin(), size->end());
  return shaped(out, x.dtype);
}

SymValue constant_pad(RuleContext& ctx) {
  SymTensor x = ctx.tensor(0, "self");
  const std::vector<Expr> pad = ctx.integers(1, "pad");
  if (pad.size() % 2 != 0 || pad.size() / 2 > x.rank()) throw RuleError("constant_pad_nd: bad padding length");
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    Expr& d = x.sizes[x.rank() - 1 - i];
    d = ctx.simplify(d + pad[2 * i] + pad[2 * i + 1]);
    ctx.check(Expr::ge(d, Expr(0)), "pad: resulting size is non-negative");
  }
  return SymValue::of(std::move(x));
}

}  // namespace

void add_conv_pool_rules(RuleTable& t) {
  set_aten_rule(t, {"convolution", "_convolution"}, convolution);
  set_aten_rule(t, {"conv1d", "conv2d", "conv3d"}, conv_nd);
  set_aten_rule(t, {"conv_transpose1d", "conv_transpose2d", "conv_transpose3d"}, conv_transpose_nd);
  set_aten_rule(t, {"max_pool1d"}, max_pool1d);
  set_aten_rule(t, {"max_pool2d"}, max_pool2d);
  set_aten_rule(t, {"max_pool3d"}, max_pool3d);
  set_aten_rule(t, {"max_pool1d_with_indices"}, max_pool1d_idx);
  set_aten_rule(t, {"max_pool2d_with_indices"}, max_pool2d_idx);
  set_aten_rule(t, {"max_pool3d_with_indices"}, max_pool3d_idx);
  set_aten_rule(t, {"avg_pool1d"}, avg_pool1d);
  set_aten_rule(t, {"avg_pool2d"}, avg_pool2d);
  set_aten_rule(t, {"avg_pool3d"}, avg_pool3d);
  set_aten_rule(t, {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "_adaptive_avg_pool2d",
                    "_adaptive_avg_pool3d"}, adaptive_pool);
  set_aten_rule(t, {"adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d"}, adaptive_max_pool);
  set_aten_rule(t, {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d", "upsample_bilinear2d",
                    "upsample_bicubic2d", "upsample_linear1d", "upsample_trilinear3d",
                    "_upsample_nearest_exact2d"}, upsample);
  set_aten_rule(t, {"constant_pad_nd", "pad"}, constant_pad);
}

}  // namespace exportlens::ops

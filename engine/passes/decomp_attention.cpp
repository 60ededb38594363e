// scaled_dot_product_attention as torch 2.13 exports it on the CPU: a
// boolean mask becomes an additive one; with 4-D inputs and no dropout the
// op goes through _scaled_dot_product_flash_attention_for_cpu, whose
// decomposition runs the math kernel and lays the output out as flash
// attention does (permute, contiguous, permute back); otherwise the math
// kernel (_scaled_dot_product_attention_math) directly: q and k scaled by
// sqrt(scale) each, a causal mask from tril(ones), matmul, _safe_softmax,
// dropout, matmul.
#include <cmath>
#include <limits>

#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

/// convert_boolean_attn_mask: True (attend) -> 0.0, False -> -inf.
ir::Node* additive_mask(Rewriter& b, ir::Node* mask, ir::ScalarType dtype) {
  const ir::Device device = b.meta(mask).device;
  ir::Node* minus_inf = b.call1("aten.scalar_tensor.default", {-std::numeric_limits<double>::infinity()},
                                {kw("dtype", dtype), kw("device", device)});
  ir::Node* zero = b.call1("aten.scalar_tensor.default", {0.0},
                           {kw("dtype", dtype), kw("layout", ir::Layout::Strided), kw("device", device)});
  return b.call1("aten.where.self", {mask, zero, minus_inf});
}

/// ones([L, S], bool).tril(): torch._refs.tril's column - row <= 0 mask.
ir::Node* causal_mask(Rewriter& b, const ir::SymInt& L, const ir::SymInt& S, const ir::Device& device) {
  const std::vector<ir::NamedArgument> factory{kw("layout", ir::Layout::Strided), kw("device", device),
                                               kw("pin_memory", false)};
  std::vector<ir::NamedArgument> full_kwargs{kw("dtype", ir::ScalarType::Bool)};
  full_kwargs.insert(full_kwargs.end(), factory.begin(), factory.end());
  ir::Node* ones = b.call1("aten.full.default", {b.sym_list({L, S}), true}, full_kwargs);
  ir::Node* cols = b.call1("aten.arange.start_step", {int64_t{0}, b.sym(S)}, factory);
  ir::Node* cols2 = b.call1("aten.unsqueeze.default", {cols, int64_t{-2}});
  ir::Node* rows = b.call1("aten.arange.start_step", {int64_t{0}, b.sym(L)}, factory);
  ir::Node* rows2 = b.call1("aten.unsqueeze.default", {rows, int64_t{-1}});
  ir::Node* diff = b.call1("aten.sub.Tensor", {cols2, rows2});
  ir::Node* lower = b.call1("aten.le.Scalar", {diff, int64_t{0}});
  return b.call1("aten.logical_and.default", {lower, ones});
}

struct Attention {
  ir::Node* q;
  ir::Node* k;
  ir::Node* v;
  ir::Node* mask;  // additive, or nullptr
  double dropout_p;
  bool is_causal;
  std::optional<double> scale;
  bool enable_gqa;
};

ir::Node* math_kernel(Rewriter& b, const Attention& a) {
  const ir::TensorMeta& qm = b.meta(a.q);
  if (a.enable_gqa && !b.hints().eq(qm.sizes[qm.rank() - 3], b.meta(a.k).sizes[b.rank(a.k) - 3]))
    throw DecompositionError("scaled_dot_product_attention: grouped-query attention is not supported");
  const auto head = qm.sizes.back().expr.as_integer();
  if (!a.scale && !head) throw DecompositionError("scaled_dot_product_attention: symbolic head size");
  const bool negative = a.scale && *a.scale < 0;
  const double base = a.scale ? std::abs(*a.scale) : 1.0 / std::sqrt(double(*head));
  const double factor = std::sqrt(base);
  ir::Node* q = b.call1("aten.mul.Scalar", {a.q, negative ? -factor : factor});
  ir::Node* mask = a.mask;
  if (a.is_causal) {
    if (mask) throw DecompositionError("scaled_dot_product_attention: attn_mask with is_causal=True");
    const Dims qs = b.sizes(q), ks = b.sizes(a.k);
    mask = additive_mask(b, causal_mask(b, qs[qs.size() - 2], ks[ks.size() - 2], qm.device), qm.dtype);
  }
  ir::Node* kt = b.call1("aten.transpose.int", {a.k, int64_t{-2}, int64_t{-1}});
  ir::Node* ks = b.call1("aten.mul.Scalar", {kt, factor});
  ir::Node* attn = b.call1("aten.matmul.default", {q, ks});
  if (mask) attn = b.call1("aten.add.Tensor", {attn, mask});
  attn = b.call1("aten._safe_softmax.default", {attn, int64_t{-1}});
  if (a.dropout_p > 0.0) attn = b.call1("aten.dropout.default", {attn, a.dropout_p, true});
  return b.call1("aten.matmul.default", {attn, a.v});
}

ir::Argument sdpa(Rewriter& b, const OpCall& c) {
  Attention a{c.tensor(0, "query"), c.tensor(1, "key"), c.tensor(2, "value"), c.optional_tensor(3, "attn_mask"),
              c.number_or(4, "dropout_p", 0.0), c.boolean_or(5, "is_causal", false), c.optional_number(6, "scale"),
              c.boolean_or(7, "enable_gqa", false)};
  const ir::ScalarType dtype = b.dtype(a.q);
  if (!ir::is_floating(dtype)) c.fail("query must be a floating-point tensor");
  if (dtype == ir::ScalarType::Half || dtype == ir::ScalarType::BFloat16)
    c.fail("half-precision attention (computed in float32 by torch) is not supported");
  if (a.mask && b.dtype(a.mask) == ir::ScalarType::Bool) a.mask = additive_mask(b, a.mask, dtype);
  if (!sdpa_takes_cpu_flash_path(b.meta(a.q), b.meta(a.k), b.meta(a.v), a.mask ? &b.meta(a.mask) : nullptr, a.dropout_p,
                                 b.hints()))
    return math_kernel(b, a);
  a.enable_gqa = !b.hints().eq(b.sizes(a.q)[1], b.sizes(a.k)[1]);
  ir::Node* out = math_kernel(b, a);
  // _scaled_dot_product_flash_attention_for_cpu's layout: (N, H, L, E) viewed from (L, N, H, E)
  ir::Node* lnhe = b.call1("aten.permute.default", {out, ints({2, 0, 1, 3})});
  if (!b.is_contiguous(lnhe))
    lnhe = b.call1("aten.clone.default", {lnhe}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
  return b.call("aten.permute.default", {lnhe, ints({1, 2, 0, 3})});
}

}  // namespace

void add_attention_decompositions(DecompositionTable& t) {
  t.set(rule("aten.scaled_dot_product_attention.default", "attention",
             "at::native::scaled_dot_product_attention -> _scaled_dot_product_flash_attention_for_cpu "
             "decomposition -> _scaled_dot_product_attention_math",
             sdpa));
}

}  // namespace exportlens::passes

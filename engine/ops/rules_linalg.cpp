// Matrix products. The guards are the meta kernels' checks: mm/addmm
// "mat1.size(1) == mat2.size(0)" (Eq(s1, 5) against a Linear's weight),
// bmm's batch and inner dims together, matmul's broadcast batch dims.
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

void check_inner(RuleContext& ctx, const Expr& a, const Expr& b, const char* rule) {
  ctx.check_equal(a, b, rule,
                  [&] {
                    return "mat1 and mat2 shapes cannot be multiplied (inner dims " + a.str() + " and " + b.str() + ")";
                  });
}

SymValue mm(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), b = ctx.tensor(1, "mat2");
  if (a.rank() != 2 || b.rank() != 2) throw RuleError("mm expects 2-D tensors");
  check_inner(ctx, a.sizes[1], b.sizes[0], "mm: self.size(1) == mat2.size(0)");
  return shaped({a.sizes[0], b.sizes[1]}, promote(a.dtype, b.dtype));
}

SymValue addmm(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self"), a = ctx.tensor(1, "mat1"), b = ctx.tensor(2, "mat2");
  if (a.rank() != 2 || b.rank() != 2) throw RuleError("addmm expects 2-D matrices");
  check_inner(ctx, a.sizes[1], b.sizes[0], "addmm: mat1.size(1) == mat2.size(0)");
  const std::vector<Expr> out = {a.sizes[0], b.sizes[1]};
  broadcast_shapes(ctx, self.sizes, out, "addmm: self broadcasts to the product");
  return shaped(out, promote(a.dtype, b.dtype));
}

SymValue bmm(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), b = ctx.tensor(1, "mat2");
  if (a.rank() != 3 || b.rank() != 3) throw RuleError("bmm expects 3-D tensors");
  ctx.check(Expr::logical_and({Expr::eq(b.sizes[1], a.sizes[2]), Expr::eq(b.sizes[0], a.sizes[0])}),
            "bmm: batch and inner dims", "Expected size for first two dimensions of batch2 tensor");
  return shaped({a.sizes[0], a.sizes[1], b.sizes[2]}, promote(a.dtype, b.dtype));
}

SymValue baddbmm(RuleContext& ctx) {
  const SymTensor self = ctx.tensor(0, "self"), a = ctx.tensor(1, "batch1"), b = ctx.tensor(2, "batch2");
  ctx.check(Expr::logical_and({Expr::eq(b.sizes[1], a.sizes[2]), Expr::eq(b.sizes[0], a.sizes[0])}),
            "baddbmm: batch and inner dims");
  const std::vector<Expr> out = {a.sizes[0], a.sizes[1], b.sizes[2]};
  broadcast_shapes(ctx, self.sizes, out, "baddbmm: self broadcasts to the product");
  return shaped(out, promote(a.dtype, b.dtype));
}

/// torch.matmul for every rank combination (at::matmul's cases).
std::vector<Expr> matmul_sizes(RuleContext& ctx, const std::vector<Expr>& a, const std::vector<Expr>& b) {
  const size_t ra = a.size(), rb = b.size();
  if (ra == 0 || rb == 0) throw RuleError("matmul: both arguments need at least 1 dimension");
  if (ra == 1 && rb == 1) {
    check_inner(ctx, a[0], b[0], "dot: sizes match");
    return {};
  }
  if (ra == 2 && rb == 1) {
    check_inner(ctx, a[1], b[0], "mv: self.size(1) == vec.size(0)");
    return {a[0]};
  }
  if (ra == 1 && rb == 2) {
    check_inner(ctx, a[0], b[0], "mm: self.size(1) == mat2.size(0)");
    return {b[1]};
  }
  if (ra == 2 && rb == 2) {
    check_inner(ctx, a[1], b[0], "mm: self.size(1) == mat2.size(0)");
    return {a[0], b[1]};
  }
  if (ra >= 3 && (rb == 1 || rb == 2)) {  // folded into one mm
    check_inner(ctx, a[ra - 1], b[0], "matmul: inner dims");
    std::vector<Expr> out(a.begin(), a.end() - 1);
    if (rb == 2) out.push_back(b[1]);
    return out;
  }
  // Batched: broadcast the batch dims, then bmm's inner check.
  const Expr n = ra > 1 ? a[ra - 2] : Expr(1), m1 = a[ra - 1];
  const Expr m2 = rb > 1 ? b[rb - 2] : b[0], p = rb > 1 ? b[rb - 1] : Expr(1);
  const std::vector<Expr> batch_a(a.begin(), a.end() - std::min<size_t>(ra, 2));
  const std::vector<Expr> batch_b(b.begin(), b.end() - std::min<size_t>(rb, 2));
  std::vector<Expr> out = broadcast_shapes(ctx, batch_a, batch_b, "matmul: batch dims broadcast");
  check_inner(ctx, m2, m1, "matmul: inner dims");
  if (ra > 1) out.push_back(n);
  if (rb > 1) out.push_back(p);
  return out;
}

SymValue matmul(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), b = ctx.tensor(1, "other");
  return shaped(matmul_sizes(ctx, a.sizes, b.sizes), promote(a.dtype, b.dtype));
}

SymValue linear(RuleContext& ctx) {
  const SymTensor x = ctx.tensor(0, "input"), w = ctx.tensor(1, "weight");
  if (x.rank() == 0) throw RuleError("linear: input must have at least 1 dimension");
  const Expr in = x.sizes.back();
  const Expr out_features = w.rank() == 2 ? w.sizes[0] : Expr(1);
  check_inner(ctx, in, w.sizes.back(), "linear: input.size(-1) == weight.size(1)");
  std::vector<Expr> out(x.sizes.begin(), x.sizes.end() - 1);
  if (w.rank() == 2) out.push_back(out_features);
  if (auto bias = ctx.optional_tensor(2, "bias")) broadcast_shapes(ctx, bias->sizes, out, "linear: bias broadcasts");
  return shaped(out, x.dtype);
}

SymValue dot(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), b = ctx.tensor(1, "tensor");
  check_inner(ctx, a.sizes[0], b.sizes[0], "dot: sizes match");
  return shaped({}, a.dtype);
}

SymValue mv(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), v = ctx.tensor(1, "vec");
  check_inner(ctx, a.sizes[1], v.sizes[0], "mv: self.size(1) == vec.size(0)");
  return shaped({a.sizes[0]}, a.dtype);
}

SymValue outer(RuleContext& ctx) {
  const SymTensor a = ctx.tensor(0, "self"), b = ctx.tensor(1, "vec2");
  return shaped({a.sizes[0], b.sizes[0]}, promote(a.dtype, b.dtype));
}

/// scaled_dot_product_attention(q, k, v): [..., L, E] x [..., S, E] x [..., S, Ev] -> [..., L, Ev].
/// torch's kernel checks batch and head dims and the embedding dims (key's
/// against query's and value's), in this order; it does not check S.
SymValue sdpa(RuleContext& ctx) {
  const SymTensor q = ctx.tensor(0, "query"), k = ctx.tensor(1, "key"), v = ctx.tensor(2, "value");
  const size_t r = q.rank();
  if (r < 2 || k.rank() != r || v.rank() != r) throw RuleError("scaled_dot_product_attention: ranks must match");
  for (size_t i = 0; i + 2 < r; ++i) {
    ctx.check_equal(q.sizes[i], k.sizes[i], "sdpa: query and key batch dims");
    if (i == 0) ctx.check_equal(q.sizes[i], v.sizes[i], "sdpa: query and value batch dims");
    else ctx.check_equal(k.sizes[i], v.sizes[i], "sdpa: key and value head dims");
  }
  ctx.check_equal(q.sizes[r - 1], k.sizes[r - 1], "sdpa: query and key embedding dims");
  ctx.check_equal(k.sizes[r - 1], v.sizes[r - 1], "sdpa: key and value embedding dims");
  std::vector<Expr> out(q.sizes.begin(), q.sizes.end() - 1);
  out.push_back(v.sizes[r - 1]);
  return shaped(out, q.dtype);
}

SymValue transpose_2d(RuleContext& ctx) {
  SymTensor a = ctx.tensor(0, "self");
  if (a.rank() == 2) std::swap(a.sizes[0], a.sizes[1]);
  return SymValue::of(std::move(a));
}

}  // namespace

void add_linalg_rules(RuleTable& t) {
  set_aten_rule(t, {"mm"}, mm);
  set_aten_rule(t, {"addmm"}, addmm);
  set_aten_rule(t, {"bmm"}, bmm);
  set_aten_rule(t, {"baddbmm"}, baddbmm);
  set_aten_rule(t, {"matmul"}, matmul);
  set_aten_rule(t, {"linear"}, linear);
  set_aten_rule(t, {"dot", "vdot"}, dot);
  set_aten_rule(t, {"mv"}, mv);
  set_aten_rule(t, {"outer", "ger"}, outer);
  set_aten_rule(t, {"scaled_dot_product_attention"}, sdpa);
  set_aten_rule(t, {"t"}, transpose_2d);
  t["aten.numpy_T"] = transpose_2d;
}

}  // namespace exportlens::ops

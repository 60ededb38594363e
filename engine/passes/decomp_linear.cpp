// Matrix products: linear (at::native::linear), matmul (_matmul_impl: dot,
// mv, mm, folding the batch of a foldable operand into one mm, else
// expand + bmm), and the Python decompositions of mv, dot and baddbmm.
// Which path is taken depends on ranks, on strides and on which operand
// requires grad, as in LibTorch.
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

/// reshape (a view when possible), shared with decomp_view.cpp's semantics.
ir::Node* reshape(Rewriter& b, ir::Node* self, const Dims& shape) {
  const ir::TensorMeta& m = b.meta(self);
  if (view_strides(m.sizes, m.strides, shape, b.hints()))
    return b.call1("aten.view.default", {self, b.sym_list(shape)});
  ir::Node* copy = b.call1("aten.clone.default", {self}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
  return b.call1("aten._unsafe_view.default", {copy, b.sym_list(shape)});
}

ir::Node* transpose_last(Rewriter& b, ir::Node* t) {  // Tensor.mT
  const int64_t r = int64_t(b.rank(t));
  return b.call1("aten.transpose.int", {t, r - 2, r - 1});
}

/// The strides `t.mT` would have.
ir::TensorMeta transposed_meta(const ir::TensorMeta& m) {
  ir::TensorMeta out = m;
  const size_t r = m.rank();
  std::swap(out.sizes[r - 2], out.sizes[r - 1]);
  std::swap(out.strides[r - 2], out.strides[r - 1]);
  return out;
}

/// at::native should_fold: fold the larger operand's batch into one mm when
/// the smaller operand requires grad (to keep the backward's tensors small),
/// else only when the batch dims are contiguous. Which values require grad in
/// torch's retrace: requires_grad.h (a parameter's w.T does, a value the
/// retrace computes does not: it runs under no_grad).
bool should_fold(const Rewriter& b, ir::Node* a, ir::Node* c) {
  const size_t ra = b.rank(a), rc = b.rank(c);
  const bool a_larger = ra >= rc;
  const ir::TensorMeta t1 = a_larger ? b.meta(a) : transposed_meta(b.meta(c));
  const size_t dim_t2 = a_larger ? rc : ra;
  if (!(t1.rank() >= 3 && dim_t2 <= 2)) return false;
  if (b.requires_grad(a_larger ? c : a)) return true;  // t2_requires_grad (matmul has no out= here)
  if (ra == 2) return false;
  if (auto n = t1.static_numel(); n && *n == 0) return true;
  for (size_t i = 0; i + 2 < t1.rank(); ++i)
    if (!b.hints().eq(t1.strides[i], sym_mul(t1.strides[i + 1], t1.sizes[i + 1]))) return false;
  return true;
}

ir::Argument matmul_tensors(Rewriter& b, ir::Node* t1_in, ir::Node* t2_in) {
  const size_t d1 = b.rank(t1_in), d2 = b.rank(t2_in);
  if (d1 == 0 || d2 == 0) throw DecompositionError("matmul: both arguments need at least 1 dimension");
  if (d1 == 1 && d2 == 1) return b.call("aten.dot.default", {t1_in, t2_in});
  if (d1 == 2 && d2 == 1) return b.call("aten.mv.default", {t1_in, t2_in});
  if (d1 == 1 && d2 == 2) {
    ir::Node* row = b.call1("aten.unsqueeze.default", {t1_in, int64_t{0}});
    ir::Node* mm = b.call1("aten.mm.default", {row, t2_in});
    return b.call("aten.squeeze.dim", {mm, int64_t{0}});
  }
  if (d1 == 2 && d2 == 2) return b.call("aten.mm.default", {t1_in, t2_in});

  if (should_fold(b, t1_in, t2_in)) {
    const bool transpose = d2 > d1;
    ir::Node* t1 = transpose ? transpose_last(b, t2_in) : t1_in;
    ir::Node* t2 = !transpose ? t2_in : (d1 == 2 ? b.call1("aten.t.default", {t1_in}) : t1_in);
    const Dims sizes1 = b.sizes(t1);
    Dims output_shape(sizes1.begin(), sizes1.end() - 1);
    const ir::SymInt folded = product(output_shape);
    b.sym_product(output_shape);  // the fold multiplies the batch out first
    const bool t2_is_matrix = b.rank(t2) == 2;
    if (t2_is_matrix) output_shape.push_back(b.sizes(t2)[1]);
    ir::Node* t1_folded = reshape(b, t1, {folded, sizes1.back()});
    if (t2_is_matrix) {
      ir::Node* mm = b.call1("aten.mm.default", {t1_folded, t2});
      ir::Node* out = b.call1("aten._unsafe_view.default", {mm, b.sym_list(output_shape)});
      if (!transpose) return out;
      ir::Node* back = transpose_last(b, out);
      if (b.is_contiguous(back)) return back;
      return b.call("aten.clone.default", {back}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
    }
    ir::Node* mv = b.call1("aten.mv.default", {t1_folded, t2});
    return b.call("aten._unsafe_view.default", {mv, b.sym_list(output_shape)});
  }

  // Batched: broadcast the batch dims, flatten them, one bmm.
  const Dims s1 = b.sizes(t1_in), s2 = b.sizes(t2_in);
  const ir::SymInt n = d1 > 1 ? s1[d1 - 2] : ir::SymInt(int64_t{1});
  const ir::SymInt m1 = s1.back();
  const Dims batch1(s1.begin(), s1.begin() + (d1 > 2 ? d1 - 2 : 0));
  const ir::SymInt m2 = d2 > 1 ? s2[d2 - 2] : s2.front();
  const ir::SymInt p = d2 > 1 ? s2.back() : ir::SymInt(int64_t{1});
  const Dims batch2(s2.begin(), s2.begin() + (d2 > 2 ? d2 - 2 : 0));
  Dims output_shape;  // infer_size(batch1, batch2)
  const size_t nb = std::max(batch1.size(), batch2.size());
  for (size_t k = 0; k < nb; ++k) {
    const size_t i = nb - 1 - k;
    const ir::SymInt a = k < batch1.size() ? batch1[batch1.size() - 1 - k] : ir::SymInt(int64_t{1});
    const ir::SymInt c = k < batch2.size() ? batch2[batch2.size() - 1 - k] : ir::SymInt(int64_t{1});
    (void)i;
    output_shape.insert(output_shape.begin(), b.hints().eq(a, ir::SymInt(int64_t{1})) ? c : a);
  }
  const ir::SymInt batch = product(output_shape);
  b.sym_product(output_shape);  // _matmul_impl multiplies the batch out before it expands (torch's node order)
  Dims expand1 = output_shape;
  expand1.push_back(n);
  expand1.push_back(m1);
  ir::Node* e1 = b.call1("aten.expand.default", {t1_in, b.sym_list(expand1)});
  ir::Node* t1e = reshape(b, e1, {batch, n, m1});
  const bool vector_rhs = d2 == 1;
  Dims expand2 = output_shape;
  expand2.push_back(m2);
  if (!vector_rhs) expand2.push_back(p);
  ir::Node* e2 = b.call1("aten.expand.default", {t2_in, b.sym_list(expand2)});
  ir::Node* t2e = vector_rhs ? b.call1("aten.unsqueeze.default", {reshape(b, e2, {batch, m2}), int64_t{2}})
                             : reshape(b, e2, {batch, m2, p});
  if (d1 > 1) output_shape.push_back(n);
  if (d2 > 1) output_shape.push_back(p);
  ir::Node* bmm = b.call1("aten.bmm.default", {t1e, t2e});
  if (vector_rhs) bmm = b.call1("aten.squeeze.dim", {bmm, int64_t{-1}});
  return b.call("aten._unsafe_view.default", {bmm, b.sym_list(output_shape)});
}

ir::Argument matmul(Rewriter& b, const OpCall& c) {
  return matmul_tensors(b, c.tensor(0, "self"), c.tensor(1, "other"));
}

ir::Node* flatten_nd_linear(Rewriter& b, ir::Node* input, ir::Node* weight, ir::Node* bias) {
  const Dims sizes = b.sizes(input);
  b.sym_product(sizes, 0, sizes.size() - 1);
  ir::Node* flat = reshape(b, input, {product(sizes, 0, sizes.size() - 1), sizes.back()});
  ir::Node* wt = b.call1("aten.t.default", {weight});
  ir::Node* result = b.call1("aten.addmm.default", {bias, flat, wt});
  Dims out(sizes.begin(), sizes.end() - 1);
  out.push_back(b.sizes(result)[1]);
  return b.call1("aten.view.default", {result, b.sym_list(out)});
}

ir::Argument linear(Rewriter& b, const OpCall& c) {
  ir::Node* input = c.tensor(0, "input");
  ir::Node* weight = c.tensor(1, "weight");
  ir::Node* bias = c.optional_tensor(2, "bias");
  const size_t rank = b.rank(input);
  if (rank == 0 || b.rank(weight) == 0) c.fail("both arguments to linear need at least 1 dimension");
  if (rank == 2 && bias) {
    ir::Node* wt = b.call1("aten.t.default", {weight});
    return b.call("aten.addmm.default", {bias, input, wt});
  }
  if (bias && b.is_contiguous(input) && (rank == 3 || b.rank(bias) == 1))
    return flatten_nd_linear(b, input, weight, bias);
  ir::Node* wt = b.call1("aten.t.default", {weight});
  ir::Argument out = matmul_tensors(b, input, wt);
  if (!bias) return out;
  return b.call("aten.add.Tensor", {out, bias});  // output.add_(bias), functionalized
}

// ---- Python decompositions ---------------------------------------------------------

ir::Argument mv(Rewriter& b, const OpCall& c) {
  ir::Node* prod = b.call1("aten.mul.Tensor", {c.tensor(0, "self"), c.tensor(1, "vec")});
  return b.call("aten.sum.dim_IntList", {prod, ints({1})});
}

ir::Argument dot(Rewriter& b, const OpCall& c) {
  ir::Node* prod = b.call1("aten.mul.Tensor", {c.tensor(0, "self"), c.tensor(1, "tensor")});
  return b.call("aten.sum.default", {prod});
}

ir::Argument baddbmm(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  ir::Node* result = b.call1("aten.bmm.default", {c.tensor(1, "batch1"), c.tensor(2, "batch2")});
  const double alpha = c.number_or(4, "alpha", 1.0), beta = c.number_or(3, "beta", 1.0);
  if (alpha != 1.0) result = b.call1("aten.mul.Tensor", {result, alpha});
  if (beta == 0.0) return result;
  if (beta != 1.0) self = b.call1("aten.mul.Tensor", {self, beta});
  return b.call("aten.add.Tensor", {self, result});
}

}  // namespace

void add_linear_decompositions(DecompositionTable& t) {
  const char* f = "linear";
  t.set(rule("aten.linear.default", f, "at::native::linear (CompositeImplicitAutograd)", linear));
  t.set(rule("aten.matmul.default", f, "at::native::_matmul_impl (CompositeImplicitAutograd)", matmul));
  t.set(rule("aten.mv.default", f, "torch._decomp.decompositions.mv", mv));
  t.set(rule("aten.dot.default", f, "torch._decomp.decompositions.dot", dot));
  t.set(rule("aten.baddbmm.default", f, "torch._decomp.decompositions.baddbmm", baddbmm));
}

}  // namespace exportlens::passes

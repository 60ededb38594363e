#include "engine/ops/rule_helpers.h"

#include <algorithm>

#include "engine/symbolic/contiguity_probe.h"
#include "engine/symbolic/solve_memo.h"

namespace exportlens::ops {

std::vector<Expr> broadcast_shapes(RuleContext& ctx, const std::vector<Expr>& a, const std::vector<Expr>& b,
                                   const char* rule) {
  static const Expr one(1);
  const size_t n = std::max(a.size(), b.size());
  std::vector<Expr> out(n, shared_zero());
  for (size_t k = 0; k < n; ++k) {
    const size_t i = n - 1 - k;
    const Expr sa = k < a.size() ? ctx.simplify(a[a.size() - 1 - k]) : one;
    const Expr sb = k < b.size() ? ctx.simplify(b[b.size() - 1 - k]) : one;
    if (sa == sb) {
      out[i] = sa;
    } else if (ctx.known_one(sa, rule)) {
      out[i] = sb;
    } else if (ctx.known_one(sb, rule)) {
      out[i] = sa;
    } else {
      // torch's _broadcast_shapes asks shape[idx] == common_shape[idx]: a size
      // that is a number so far is on the right of the guard (mask.size()[1] == 3).
      const bool number_so_far = sa.is_integer() && !sb.is_integer();
      ctx.check_equal(number_so_far ? sb : sa, number_so_far ? sa : sb, rule, [&] {
        return "The size of tensor a (" + sa.str() + ") must match the size of tensor b (" + sb.str() +
               ") at non-singleton dimension " + std::to_string(i);
      });
      out[i] = sa;
    }
  }
  return out;
}

Expr product(const std::vector<Expr>& sizes, size_t begin, size_t end, symbolic::SolveMemo* memo) {
  end = std::min(end, sizes.size());
  if (begin >= end) return Expr(1);
  Expr p = sizes[begin];
  for (size_t i = begin + 1; i < end; ++i)
    if (!(sizes[i] == Expr(1))) p = p == Expr(1) ? sizes[i] : symbolic::built(memo, Expr::Kind::Mul, p, sizes[i]);
  return p;
}

bool recorded_contiguous(const ir::Node* n) {
  const ir::TensorMeta* m = n ? n->value.tensor() : nullptr;
  if (!m || m->strides.size() != m->sizes.size()) return false;
  std::vector<Expr> sizes, strides;
  for (size_t i = 0; i < m->rank(); ++i) {
    sizes.push_back(m->sizes[i].expr);
    strides.push_back(m->strides[i].expr);
  }
  return strides == symbolic::contiguous_strides(sizes);
}

ir::ScalarType promote(ir::ScalarType a, ir::ScalarType b) {
  if (a == b) return a;
  const bool fa = ir::is_floating(a), fb = ir::is_floating(b);
  if (fa != fb) return fa ? a : b;
  if (a == ir::ScalarType::Bool) return b;
  if (b == ir::ScalarType::Bool) return a;
  return ir::element_size(a) >= ir::element_size(b) ? a : b;
}

ir::ScalarType summed_dtype(ir::ScalarType input) {
  switch (input) {
    case ir::ScalarType::Bool:
    case ir::ScalarType::Byte:
    case ir::ScalarType::Char:
    case ir::ScalarType::Short:
    case ir::ScalarType::Int:
    case ir::ScalarType::UInt16: return ir::ScalarType::Long;
    default: return input;
  }
}

std::vector<int64_t> reduction_dims(RuleContext& ctx, size_t index, std::string_view name, size_t rank) {
  std::vector<int64_t> dims;
  if (ctx.has(index, name)) {
    const SymValue v = ctx.value(index, name);
    if (v.kind == SymValue::Kind::Int) dims.push_back(ctx.static_integer(index, name));
    else dims = ctx.static_integers(index, name);
  }
  if (dims.empty())
    for (size_t i = 0; i < rank; ++i) dims.push_back(int64_t(i));
  for (auto& d : dims) d = ctx.wrap_dim(d, rank);
  return dims;
}

std::vector<Expr> reduced_sizes(const std::vector<Expr>& sizes, const std::vector<int64_t>& dims, bool keepdim) {
  std::vector<Expr> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const bool reduced = std::find(dims.begin(), dims.end(), int64_t(i)) != dims.end();
    if (!reduced) out.push_back(sizes[i]);
    else if (keepdim) out.push_back(Expr(1));
  }
  return out;
}

SymValue same_shape(const SymTensor& t) { return SymValue::of(t); }

SymValue shaped(std::vector<Expr> sizes, ir::ScalarType dtype) {
  SymTensor t;
  t.sizes = std::move(sizes);
  t.dtype = dtype;
  return SymValue::of(std::move(t));
}

}  // namespace exportlens::ops

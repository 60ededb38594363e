// Ops torch's references rewrite over positions made by arange: roll
// (index_select of (arange + start) fmod size, one dim at a time) and
// triu / tril (a mask of column - row against the diagonal, then where);
// and the pointwise composites that sit beside them in the masks and norms
// real models write: addcmul and addcdiv (self + value * t1 * or / t2) and
// fill.Tensor (copy).
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

std::vector<ir::NamedArgument> factory_options(Rewriter& b, ir::Node* like) {
  return {kw("layout", ir::Layout::Strided), kw("device", b.meta(like).device), kw("pin_memory", false)};
}

/// Python's %, whose result takes the divisor's sign.
int64_t python_mod(int64_t a, int64_t m) {
  const int64_t r = a % m;
  return r != 0 && (r < 0) != (m < 0) ? r + m : r;
}

/// torch._refs.roll for one dim: a.index_select(dim, fmod(arange(size) + start, size)),
/// start = (size - shift) % size (Python ints, or operator nodes for a symbolic size).
ir::Node* roll_one(Rewriter& b, ir::Node* a, int64_t shift, int64_t dim) {
  const ir::SymInt size = b.sizes(a)[size_t(dim)];
  ir::Argument start;
  if (auto n = size.expr.as_integer()) {
    start = python_mod(*n - shift, *n);
  } else {
    const ir::Argument sub = b.sym_operator("sub", b.sym(size), shift, ir::SymInt(size.expr - shift));
    start = b.sym_operator("mod", sub, b.sym(size), ir::SymInt(symbolic::Expr::mod(size.expr - shift, size.expr)));
  }
  ir::Node* positions = b.call1("aten.arange.start_step", {int64_t{0}, b.sym(size)}, factory_options(b, a));
  ir::Node* shifted = b.call1("aten.add.Tensor", {positions, start});
  ir::Node* index = b.call1("aten.fmod.Scalar", {shifted, b.sym(size)});
  return b.call1("aten.index_select.default", {a, dim, index});
}

ir::Argument roll(Rewriter& b, const OpCall& c) {
  ir::Node* a = c.tensor(0, "self");
  const std::vector<int64_t> shifts = c.integers(1, "shifts");
  std::vector<int64_t> dims = c.integers_or(2, "dims", {});
  const Dims sizes = b.sizes(a);
  if (shifts.empty()) c.fail("`shifts` required");
  bool empty = false;
  for (const auto& s : sizes) empty |= s.expr.as_integer() == std::optional<int64_t>(0);
  if (empty) return b.call("aten.clone.default", {a});
  if (dims.empty()) {  // roll the flattened tensor, then view it back
    if (shifts.size() != 1) c.fail("shifts and dimensions must align");
    ir::Node* flat = b.call1("aten.flatten.using_ints", {a});  // a view, or a copy of a strided tensor
    return b.call("aten.view.default", {roll_one(b, flat, shifts[0], 0), b.sym_list(sizes)});
  }
  if (shifts.size() != dims.size()) c.fail("shifts and dimensions must align");
  for (size_t i = 0; i < dims.size(); ++i) a = roll_one(b, a, shifts[i], wrap_dim(dims[i], sizes.size()));
  return a;
}

/// torch._refs.triu / tril: mask = (arange(w).unsqueeze(-2) - arange(h).unsqueeze(-1)) >= diagonal
/// (<= for tril); where(mask, a, 0) (logical_and for bool).
DecompositionFn triangle(bool upper) {
  return [upper](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* a = c.tensor(0, "self");
    const Dims sizes = b.sizes(a);
    if (sizes.size() < 2) c.fail("triu/tril: input tensor must have at least 2 dimensions");
    const int64_t diagonal = c.integer_or(1, "diagonal", 0);
    const auto options = factory_options(b, a);
    ir::Node* cols = b.call1("aten.unsqueeze.default",
                             {b.call1("aten.arange.start_step", {int64_t{0}, b.sym(sizes.back())}, options), int64_t{-2}});
    ir::Node* rows = b.call1("aten.unsqueeze.default",
                             {b.call1("aten.arange.start_step", {int64_t{0}, b.sym(sizes[sizes.size() - 2])}, options),
                              int64_t{-1}});
    ir::Node* offset = b.call1("aten.sub.Tensor", {cols, rows});
    ir::Node* mask = b.call1(upper ? "aten.ge.Scalar" : "aten.le.Scalar", {offset, diagonal});
    const ir::TensorMeta& m = b.meta(a);
    if (m.dtype == ir::ScalarType::Bool) return b.call("aten.logical_and.default", {mask, a});
    ir::Node* fill = b.call1("aten.scalar_tensor.default", {int64_t{0}},  // the Python int 0, in a's dtype
                             {kw("dtype", m.dtype), kw("layout", ir::Layout::Strided), kw("device", m.device)});
    return b.call("aten.where.self", {mask, a, fill});
  };
}

/// torch._refs.addcmul / addcdiv: self + value * tensor1 (* or /) tensor2
/// (operands of one dtype), annotated as torch's type-promotion wrapper does.
DecompositionFn add_scaled(const char* function, const char* combine) {
  return [function, combine](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* self = c.tensor(0, "self");
    ir::Node* t1 = c.tensor(1, "tensor1");
    ir::Node* t2 = c.tensor(2, "tensor2");
    if (b.dtype(t1) != b.dtype(self) || b.dtype(t2) != b.dtype(self))
      c.fail(std::string(function) + " over operands of different dtypes is not lowered");
    const DynamoDisabledRef annotated(b, function);
    ir::Node* scaled = b.call1("aten.mul.Tensor", {t1, c.value_or(3, "value", int64_t{1})});
    return b.call("aten.add.Tensor", {self, b.call1(combine, {scaled, t2})});
  };
}

/// torch._refs.fill (Tensor value): a copy of the 0-d value into self's shape.
ir::Argument fill_tensor(Rewriter& b, const OpCall& c) {
  ir::Node* value = c.tensor(1, "value");
  if (b.rank(value) != 0) c.fail("fill only supports a 0-dimension value tensor");
  return b.call("aten.copy.default", {c.tensor(0, "self"), value});
}

}  // namespace

void add_position_decompositions(DecompositionTable& t) {
  const char* f = "positions";
  t.set(rule("aten.roll.default", f, "torch._refs.roll", roll));
  t.set(rule("aten.triu.default", f, "torch._refs.triu", triangle(true)));
  t.set(rule("aten.tril.default", f, "torch._refs.tril", triangle(false)));
  t.set(rule("aten.addcmul.default", f, "torch._refs.addcmul", add_scaled("addcmul", "aten.mul.Tensor")));
  t.set(rule("aten.addcdiv.default", f, "torch._refs.addcdiv", add_scaled("addcdiv", "aten.div.Tensor")));
  t.set(rule("aten.fill.Tensor", f, "torch._refs.fill", fill_tensor));
}

}  // namespace exportlens::passes

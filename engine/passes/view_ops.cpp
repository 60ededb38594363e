#include "engine/passes/view_ops.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

#include "engine/passes/decomp_helpers.h"
#include "engine/passes/rewriter.h"

namespace exportlens::passes {

namespace {

ir::Argument select_back(const WriteBackCall& c) {
  return c.b.call("aten.select_scatter.default", {c.base, c.src, c.arg(1, int64_t{0}), c.arg(2, int64_t{0})});
}

ir::Argument slice_back(const WriteBackCall& c) {
  std::vector<ir::Argument> args{c.base, c.src, c.arg(1, int64_t{0}), c.arg(2, ir::None{}), c.arg(3, ir::None{}),
                                 c.arg(4, int64_t{1})};
  detail::drop_trailing_defaults(args, {int64_t{0}, ir::None{}, ir::None{}, int64_t{1}}, 2);  // as torch prints it
  return c.b.call("aten.slice_scatter.default", std::move(args));
}

/// Any reshaping view: the new value viewed as the base's sizes.
ir::Argument reshape_back(const WriteBackCall& c) {
  return c.b.call("aten.view.default", {c.src, c.b.sym_list(c.b.sizes(c.base.node()))});
}

/// As torch's view_dtype_inverse: the new elements read again as the base's
/// dtype. Made below autograd: no detach follows it.
ir::Argument dtype_back(const WriteBackCall& c) {
  return c.b.emit(ir::op_target("aten.view.dtype"), {c.src, c.b.dtype(c.base.node())}, {});
}

ir::Argument unsqueeze_back(const WriteBackCall& c) {
  return c.b.call("aten.squeeze.dim", {c.src, c.arg(1, int64_t{0})});
}

/// As torch's unsqueeze_copy_to: an unsqueeze at each size-1 dim of the base
/// that the squeeze named (every one, when it named none).
ir::Argument squeeze_back(const WriteBackCall& c) {
  const Dims sizes = c.b.sizes(c.base.node());
  const int64_t rank = int64_t(sizes.size());
  std::vector<bool> named(sizes.size(), false);
  auto name = [&](const ir::Argument& d) {
    if (const auto* i = std::get_if<int64_t>(&d.v); i && rank > 0) named[size_t((*i % rank + rank) % rank)] = true;
  };
  const ir::Argument dims = c.arg(1, ir::None{});
  if (const auto* l = dims.list()) {
    for (const auto& d : l->items) name(d);
  } else if (std::holds_alternative<int64_t>(dims.v)) {
    name(dims);
  } else {
    named.assign(sizes.size(), true);
  }
  ir::Argument out = c.src;
  for (int64_t d = 0; d < rank; ++d)
    if (named[size_t(d)] && sizes[size_t(d)] == ir::SymInt(1)) out = c.b.call("aten.unsqueeze.default", {out, d});
  return out;
}

ir::Argument permute_back(const WriteBackCall& c) {
  std::vector<int64_t> dims;
  const ir::Argument order = c.arg(1, ir::None{});
  if (const auto* l = order.list())
    for (const auto& d : l->items)
      if (auto* i = std::get_if<int64_t>(&d.v)) dims.push_back(*i);
  const int64_t rank = int64_t(dims.size());
  ir::ArgumentList inverse;
  inverse.items.resize(dims.size());
  for (int64_t i = 0; i < rank; ++i) inverse.items[(dims[i] % rank + rank) % rank] = i;
  return c.b.call("aten.permute.default", {c.src, inverse});
}

ir::Argument transpose_back(const WriteBackCall& c) {
  return c.b.call("aten.transpose.int", {c.src, c.arg(1, int64_t{0}), c.arg(2, int64_t{1})});
}

ir::Argument t_back(const WriteBackCall& c) { return c.b.call("aten.t.default", {c.src}); }

ir::Argument identity_back(const WriteBackCall& c) { return c.src; }

ir::Argument diagonal_back(const WriteBackCall& c) {
  std::vector<ir::Argument> args{c.base, c.src, c.arg(1, int64_t{0}), c.arg(2, int64_t{0}), c.arg(3, int64_t{1})};
  detail::drop_trailing_defaults(args, {int64_t{0}, int64_t{0}, int64_t{1}}, 2);
  return c.b.call("aten.diagonal_scatter.default", std::move(args));
}

ir::Argument as_strided_back(const WriteBackCall& c) {
  std::vector<ir::Argument> args{c.base, c.src, c.arg(1, ir::None{}), c.arg(2, ir::None{}), c.arg(3, ir::None{})};
  detail::drop_trailing_defaults(args, {ir::None{}}, 4);
  return c.b.call("aten.as_strided_scatter.default", std::move(args));
}

// ---- outputs of multi-output view ops -------------------------------------------

/// `d` as an int, or a refusal naming `what` where it is symbolic.
int64_t static_int(const ir::Argument& d, const char* what) {
  if (const auto* i = std::get_if<int64_t>(&d.v)) return *i;
  throw DecompositionError(std::string("mutation through a ") + what +
                           " output of symbolic size is not functionalized");
}

/// The base's size along `dim` (wrapped), which the write-back needs as an int.
int64_t base_size(const WriteBackCall& c, int64_t& dim, const char* what) {
  const Dims sizes = c.b.sizes(c.base.node());
  const int64_t rank = int64_t(sizes.size());
  if (rank == 0) throw DecompositionError(std::string(what) + " of a 0-d tensor");
  dim = (dim % rank + rank) % rank;
  if (auto n = sizes[size_t(dim)].expr.as_integer()) return *n;
  throw DecompositionError(std::string("mutation through a ") + what + " output along a symbolic dim is not functionalized");
}

/// As torch's split_with_sizes_inverse: the output's rows [start, end) of the
/// base, end clamped to the base's size.
ir::Argument chunk_back(const WriteBackCall& c, int64_t dim, int64_t start, int64_t size, int64_t dim_size) {
  const int64_t end = std::min(start + size, dim_size);
  return c.b.call("aten.slice_scatter.default", {c.base, c.src, dim, start, end});
}

ir::Argument split_back(const WriteBackCall& c) {
  int64_t dim = static_int(c.arg(2, int64_t{0}), "split");
  const int64_t dim_size = base_size(c, dim, "split");
  const int64_t size = static_int(c.arg(1, ir::None{}), "split");
  return chunk_back(c, dim, c.output * size, size, dim_size);
}

ir::Argument split_with_sizes_back(const WriteBackCall& c) {
  int64_t dim = static_int(c.arg(2, int64_t{0}), "split_with_sizes");
  const int64_t dim_size = base_size(c, dim, "split_with_sizes");
  const ir::Argument sizes = c.arg(1, ir::None{});
  const ir::ArgumentList* l = sizes.list();
  if (!l || c.output >= int64_t(l->items.size())) throw DecompositionError("split_with_sizes: no size for output " + std::to_string(c.output));
  int64_t start = 0;
  for (int64_t i = 0; i < c.output; ++i) start += static_int(l->items[size_t(i)], "split_with_sizes");
  return chunk_back(c, dim, start, static_int(l->items[size_t(c.output)], "split_with_sizes"), dim_size);
}

/// chunk(self, chunks, dim): split by ceil(size / chunks), as torch's chunk is.
ir::Argument chunk_of_back(const WriteBackCall& c) {
  int64_t dim = static_int(c.arg(2, int64_t{0}), "chunk");
  const int64_t dim_size = base_size(c, dim, "chunk");
  const int64_t chunks = static_int(c.arg(1, ir::None{}), "chunk");
  if (chunks <= 0) throw DecompositionError("chunk: chunks must be positive");
  const int64_t size = (dim_size + chunks - 1) / chunks;
  return chunk_back(c, dim, c.output * size, size, dim_size);
}

ir::Argument unbind_back(const WriteBackCall& c) {
  return c.b.call("aten.select_scatter.default", {c.base, c.src, c.arg(1, int64_t{0}), c.output});
}

// Keyed by overload: an op's other overloads may be no view (slice.t of a
// list, _unsafe_view.out) or a view with another inverse (view.dtype
// reinterprets the elements: written back as view.dtype, not as a reshape).
const ViewOp kViewOps[] = {
    {"view.default", reshape_back},        {"view.dtype", dtype_back, false, true},
    {"_unsafe_view.default", reshape_back}, {"reshape.default", reshape_back},
    {"select.int", select_back},           {"slice.Tensor", slice_back},
    {"permute.default", permute_back},     {"transpose.int", transpose_back},
    {"t.default", t_back},                 {"unsqueeze.default", unsqueeze_back},
    {"squeeze.default", squeeze_back},     {"squeeze.dim", squeeze_back},
    {"squeeze.dims", squeeze_back},        {"alias.default", identity_back, true},
    {"detach.default", identity_back, true}, {"expand.default", nullptr},
    {"flatten.using_ints", reshape_back},  {"unflatten.int", reshape_back},
    {"view_as.default", reshape_back},     {"lift_fresh.default", identity_back, true},
    {"diagonal.default", diagonal_back},   {"as_strided.default", as_strided_back},
    // Views whose write-back is not made yet (unfold's is unfold_backward, with
    // its own Core ATen decomposition): made again when their base changed, a
    // mutation through one refused rather than lowered wrong.
    {"unfold.default", nullptr},           {"view_as_real.default", nullptr},
    {"view_as_complex.default", nullptr},  {"real.default", nullptr},
    {"imag.default", nullptr},             {"_reshape_alias.default", nullptr},
    {"_conj.default", nullptr},            {"_neg_view.default", nullptr},
};

const ViewOp kMultiOutputViewOps[] = {
    {"split.Tensor", split_back},
    {"split_with_sizes.default", split_with_sizes_back},
    {"chunk.default", chunk_of_back},
    {"unbind.int", unbind_back},
    // Refused, as above. split.sizes and split.default are split_with_sizes
    // under other names, which export never records (it records split_with_sizes).
    {"split.sizes", nullptr},
    {"split.default", nullptr},
    {"tensor_split.sections", nullptr},
    {"tensor_split.indices", nullptr},
    {"tensor_split.tensor_indices_or_sections", nullptr},
    {"hsplit.int", nullptr},
    {"hsplit.array", nullptr},
    {"vsplit.int", nullptr},
    {"vsplit.array", nullptr},
    {"dsplit.int", nullptr},
    {"dsplit.array", nullptr},
};

const ViewOp* find_in(const ir::Target& t, const ViewOp* begin, const ViewOp* end) {
  if (!t.is_torch_op() || t.op_namespace() != "aten") return nullptr;
  const std::string op = t.op_name() + "." + t.overload();
  for (const ViewOp* v = begin; v != end; ++v)
    if (v->op == op) return v;
  return nullptr;
}

}  // namespace

const ViewOp* find_view_op(const ir::Target& t) { return find_in(t, std::begin(kViewOps), std::end(kViewOps)); }

const ViewOp* find_multi_output_view_op(const ir::Target& t) {
  return find_in(t, std::begin(kMultiOutputViewOps), std::end(kMultiOutputViewOps));
}

std::vector<std::string_view> view_op_overloads() {
  std::vector<std::string_view> out;
  for (const ViewOp& v : kViewOps) out.push_back(v.op);
  for (const ViewOp& v : kMultiOutputViewOps) out.push_back(v.op);
  return out;
}

}  // namespace exportlens::passes

// Views and reshapes.
//
// Functionalization level (torch decomposes these composite ops even for an
// empty table, because they may alias): flatten, reshape, contiguous,
// view_as, expand_as, broadcast_to, numpy_T, unflatten, narrow, chunk, movedim,
// swapaxes, to.
// Core level: t / transpose -> permute, _unsafe_view -> view, split ->
// split_with_sizes, unbind -> slices + squeeze, squeeze -> squeeze.dims,
// stack -> cat + view.
#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

// ---- reshape: a view when the strides allow one, else a contiguous copy -----------

/// at::native::reshape_symint: view, or clone(contiguous) + _unsafe_view.
ir::Argument reshape_to(Rewriter& b, ir::Node* self, const Dims& shape) {
  const ir::TensorMeta& m = b.meta(self);
  if (view_strides(m.sizes, m.strides, shape, b.hints()))
    return b.call("aten.view.default", {self, b.sym_list(shape)});
  ir::Node* copy = b.call1("aten.clone.default", {self}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
  return b.call("aten._unsafe_view.default", {copy, b.sym_list(shape)});
}

/// numel / known when `known` divides `numel` as a product (the factors of
/// known among numel's, the coefficients dividing): the -1 of a view on
/// symbolic sizes ([s0, -1, s1, 8] of an [s0, 4, s1, 8] tensor is 4).
std::optional<symbolic::Expr> exact_quotient(const symbolic::Expr& numel, const symbolic::Expr& known) {
  using K = symbolic::Expr::Kind;
  auto split = [](const symbolic::Expr& e, int64_t& coefficient, std::vector<symbolic::Expr>& factors) {
    coefficient = 1;
    const std::vector<symbolic::Expr> parts = e.kind() == K::Mul ? e.args() : std::vector<symbolic::Expr>{e};
    for (const auto& f : parts) {
      if (auto v = f.as_integer()) coefficient *= *v;
      else factors.push_back(f);
    }
  };
  int64_t nc = 1, kc = 1;
  std::vector<symbolic::Expr> nf, kf;
  split(numel, nc, nf);
  split(known, kc, kf);
  if (kc == 0 || nc % kc != 0) return std::nullopt;
  for (const auto& f : kf) {
    auto it = std::find(nf.begin(), nf.end(), f);
    if (it == nf.end()) return std::nullopt;
    nf.erase(it);
  }
  symbolic::Expr q(nc / kc);
  for (const auto& f : nf) q = q * f;
  return q;
}

/// The sizes `proposed` asks for (with -1 inferred) for a tensor of `numel` elements.
Dims infer_size(Rewriter& b, const OpCall& c, const ir::Argument& proposed, const Dims& in_sizes) {
  const ir::ArgumentList* l = proposed.list();
  if (!l) c.fail("the shape is not a list");
  Dims out;
  int infer_at = -1;
  ir::SymInt known(int64_t{1});
  for (const auto& item : l->items) {
    if (auto* i = std::get_if<int64_t>(&item.v)) {
      if (*i == -1) {
        infer_at = int(out.size());
        out.push_back(ir::SymInt(int64_t{1}));
        continue;
      }
      out.push_back(ir::SymInt(*i));
    } else if (const ir::Node* n = item.node(); n && n->value.sym_int()) {
      out.push_back(*n->value.sym_int());
    } else {
      c.fail("a size of the shape is neither an int nor a SymInt");
    }
    known = sym_mul(known, out.back());
  }
  if (infer_at >= 0) {
    const ir::SymInt numel = product(in_sizes);
    const auto kv = known.expr.as_integer();
    if (kv && *kv == 0) c.fail("cannot infer the -1 size of a shape with a 0 in it");
    if (kv) {
      out[infer_at] = b.hints().sym(symbolic::Expr::floordiv(numel.expr, known.expr));
    } else if (auto q = exact_quotient(numel.expr, known.expr)) {
      out[infer_at] = b.hints().sym(*q);
    } else {
      c.fail("cannot infer the -1 size of a symbolic shape");
    }
  }
  return out;
}

/// The least value of `e` over sizes of at least 1, where `e` grows with
/// every symbol (sums and products of sizes and non-negative constants).
std::optional<int64_t> least_over_sizes(const symbolic::Expr& e) {
  using K = symbolic::Expr::Kind;
  switch (e.kind()) {
    case K::Integer: return e.as_integer();
    case K::Symbol: return 1;
    case K::Add:
    case K::Mul:
    case K::Pow: {
      for (const auto& a : e.args())
        if (auto v = least_over_sizes(a); !v || *v < 0) return std::nullopt;
      std::map<std::string, int64_t> ones;
      for (const auto& s : e.free_symbols()) ones[s] = 1;
      return e.evaluate(ones);
    }
    default: return std::nullopt;
  }
}

/// `stride == expected` without a guard, as torch's value ranges decide it:
/// equal as expressions, or a Min / Max whose other terms cannot win
/// (Min(32, 32*s70) is 32 for any size s70).
bool statically_equal(const symbolic::Expr& stride, const symbolic::Expr& expected) {
  using K = symbolic::Expr::Kind;
  if (stride == expected) return true;
  const auto c = expected.as_integer();
  if (!c || (stride.kind() != K::Min && stride.kind() != K::Max)) return false;
  bool found = false;
  for (const auto& a : stride.args()) {
    if (a == expected) {
      found = true;
      continue;
    }
    if (stride.kind() == K::Min) {
      const auto least = least_over_sizes(a);
      if (!least || *least < *c) return false;
    } else if (auto v = a.as_integer(); !v || *v > *c) {
      return false;
    }
  }
  return found;
}

/// definitely_contiguous (is_contiguous_or_false): the strides are the
/// contiguous strides of the sizes as expressions, or provably equal to them
/// (no example value decides it), sizes of 1 aside.
bool definitely_contiguous(const ir::TensorMeta& m) {
  const Dims expected = contiguous_strides(m.sizes);
  if (expected.size() != m.strides.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i)
    if (m.sizes[i].expr != symbolic::Expr(1) && !statically_equal(m.strides[i].expr, expected[i].expr)) return false;
  return true;
}

/// at::native::reshape_symint: a contiguous tensor is viewed with the shape
/// as given (-1 and all), else with the inferred sizes, else copied.
ir::Argument reshape(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const ir::Argument proposed = c.value_or(1, "shape", ir::None{});
  const Dims shape = infer_size(b, c, proposed, b.sizes(self));
  if (definitely_contiguous(b.meta(self))) return b.call("aten.view.default", {self, proposed});
  if (const ir::ArgumentList* l = proposed.list()) {
    // The -1 is inferred from numel, as torch's retrace computes it.
    Dims known;
    std::optional<size_t> inferred;
    for (size_t i = 0; i < l->items.size(); ++i) {
      if (const auto* v = std::get_if<int64_t>(&l->items[i].v); v && *v == -1) inferred = i;
      else known.push_back(shape[i]);
    }
    if (inferred && !shape[*inferred].expr.as_integer()) b.sym_inferred_size(b.sizes(self), known, shape[*inferred]);
  }
  return reshape_to(b, self, shape);
}

/// reshape_as(self, other) = self.reshape(other.sizes()) (at::native::reshape_as).
ir::Argument reshape_as(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const Dims shape = b.sizes(c.tensor(1, "other"));
  if (definitely_contiguous(b.meta(self))) return b.call("aten.view.default", {self, b.sym_list(shape)});
  return reshape_to(b, self, shape);
}

ir::Argument flatten(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const Dims sizes = b.sizes(self);
  if (sizes.empty()) return reshape_to(b, self, {ir::SymInt(int64_t{1})});
  const int64_t start = wrap_dim(c.integer_or(1, "start_dim", 0), sizes.size());
  const int64_t end = wrap_dim(c.integer_or(2, "end_dim", -1), sizes.size());
  if (start > end) c.fail("flatten() has invalid args: start_dim cannot come after end_dim");
  if (start == end) return self;
  Dims shape(sizes.begin(), sizes.begin() + start);
  shape.push_back(product(sizes, start, end + 1));
  b.sym_product(sizes, size_t(start), size_t(end + 1));
  shape.insert(shape.end(), sizes.begin() + end + 1, sizes.end());
  return reshape_to(b, self, shape);
}

ir::Argument contiguous(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  if (b.is_contiguous(self)) return self;
  return b.call("aten.clone.default", {self}, {kw("memory_format", ir::MemoryFormat::ContiguousFormat)});
}

ir::Argument view_as(Rewriter& b, const OpCall& c) {
  return b.call("aten.view.default", {c.tensor(0, "self"), b.sym_list(b.sizes(c.tensor(1, "other")))});
}

/// broadcast_to(self, size) = self.expand(size) (at::native::broadcast_to_symint).
ir::Argument broadcast_to(Rewriter& b, const OpCall& c) {
  return b.call("aten.expand.default", {c.tensor(0, "self"), c.value_or(1, "size", ir::ArgumentList{})});
}

/// x.T (numpy_T): the dims reversed (at::native::numpy_T).
ir::Argument numpy_t(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  std::vector<int64_t> dims(b.rank(self));
  std::iota(dims.rbegin(), dims.rend(), 0);
  return b.call("aten.permute.default", {self, ints(dims)});
}

ir::Argument expand_as(Rewriter& b, const OpCall& c) {
  return b.call("aten.expand.default", {c.tensor(0, "self"), b.sym_list(b.sizes(c.tensor(1, "other")))});
}

ir::Argument unflatten(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  Dims sizes = b.sizes(self);
  const int64_t dim = wrap_dim(c.integer(1, "dim"), sizes.size());
  const Dims inner = infer_size(b, c, c.value_or(2, "sizes", ir::None{}), {sizes[dim]});
  sizes.erase(sizes.begin() + dim);
  sizes.insert(sizes.begin() + dim, inner.begin(), inner.end());
  return b.call("aten.view.default", {self, b.sym_list(sizes)});
}

ir::Argument narrow(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const ir::Argument start = c.value_or(2, "start", int64_t{0});
  const ir::Argument length = c.value_or(3, "length", int64_t{0});
  const auto* s = std::get_if<int64_t>(&start.v);
  const auto* l = std::get_if<int64_t>(&length.v);
  if (!s || !l) c.fail("symbolic start or length");
  const int64_t dim = wrap_dim(c.integer(1, "dim"), b.rank(self));
  int64_t begin = *s;
  if (begin < 0) begin += hint_of(b, b.sizes(self)[dim]);
  return b.call("aten.slice.Tensor", {self, dim, begin, begin + *l});
}

ir::Argument chunk(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const int64_t chunks = c.integer(1, "chunks");
  const int64_t dim = wrap_dim(c.integer_or(2, "dim", 0), b.rank(self));
  const ir::SymInt size = b.sizes(self)[dim];
  const auto static_size = size.expr.as_integer();
  if (!static_size) c.fail("chunk of a symbolic size");
  const int64_t split_size = (*static_size + chunks - 1) / chunks;
  std::vector<ir::Argument> args{self, split_size};
  // at::native::chunk passes the dim on as given (-1 stays -1)
  if (const int64_t given = c.integer_or(2, "dim", 0); given != 0) args.push_back(given);
  return b.call("aten.split.Tensor", std::move(args));
}

ir::Argument swapaxes(Rewriter& b, const OpCall& c) {
  return b.call("aten.transpose.int", {c.tensor(0, "self"), c.integer(1, "axis0"), c.integer(2, "axis1")});
}

ir::Argument movedim(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const size_t rank = b.rank(self);
  const int64_t src = wrap_dim(c.integer(1, "source"), rank), dst = wrap_dim(c.integer(2, "destination"), rank);
  std::vector<int64_t> rest;
  for (int64_t i = 0; i < int64_t(rank); ++i)
    if (i != src) rest.push_back(i);
  rest.insert(rest.begin() + dst, src);
  return b.call("aten.permute.default", {self, ints(rest)});
}

/// Tensor.to(dtype) and friends: a copy when anything changes, else self.
ir::Argument to_dtype(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const auto dtype = c.dtype(1, "dtype");
  const bool copy = c.boolean_or(3, "copy", false);
  if (!copy && (!dtype || *dtype == b.dtype(self))) return self;
  std::vector<ir::NamedArgument> kwargs;
  if (dtype) kwargs.push_back(kw("dtype", *dtype));
  return b.call("aten._to_copy.default", {self}, std::move(kwargs));
}

/// Tensor.to(dtype=, layout=, device=) / to(device, dtype): self when nothing changes,
/// else _to_copy with what is asked (at::native::to).
DecompositionFn to_options(size_t device_at, size_t dtype_at, size_t copy_at) {
  return [=](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* self = c.tensor(0, "self");
    const ir::TensorMeta& m = b.meta(self);
    const auto dtype = c.dtype(dtype_at, "dtype");
    const ir::Argument* device = c.get(device_at, "device");
    const ir::Argument* layout = c.get(SIZE_MAX, "layout");
    const bool copy = c.boolean_or(copy_at, "copy", false);
    const ir::Device* d = device ? std::get_if<ir::Device>(&device->v) : nullptr;
    const bool same_device = !d || d->type == m.device.type;
    const bool same_layout = !layout || layout->is_none() || std::get_if<ir::Layout>(&layout->v) == nullptr ||
                             std::get<ir::Layout>(layout->v) == ir::Layout::Strided;
    if (!copy && (!dtype || *dtype == m.dtype) && same_device && same_layout) return self;
    std::vector<ir::NamedArgument> kwargs;
    if (dtype) kwargs.push_back(kw("dtype", *dtype));
    if (layout && !layout->is_none()) kwargs.push_back(kw("layout", *layout));
    if (d) kwargs.push_back(kw("device", *device));
    return b.call("aten._to_copy.default", {self}, std::move(kwargs));
  };
}

// ---- core views ----------------------------------------------------------------

ir::Argument transpose(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const size_t rank = b.rank(self);
  const int64_t d0 = wrap_dim(c.integer(1, "dim0"), rank), d1 = wrap_dim(c.integer(2, "dim1"), rank);
  if (rank <= 1 || d0 == d1) return b.call("aten.alias.default", {self});
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[d0], perm[d1]);
  return b.call("aten.permute.default", {self, ints(perm)});
}

ir::Argument t_default(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const size_t rank = b.rank(self);
  if (rank > 2) c.fail("t() expects a tensor with <= 2 dimensions");
  return b.call("aten.transpose.int", {self, int64_t{0}, int64_t{rank < 2 ? 0 : 1}});
}

ir::Argument unsafe_view(Rewriter& b, const OpCall& c) {
  return b.call("aten.view.default", {c.tensor(0, "self"), c.value_or(1, "size", ir::None{})});
}

ir::Argument split(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const int64_t split_size = c.integer(1, "split_size");
  const int64_t dim = wrap_dim(c.integer_or(2, "dim", 0), b.rank(self));
  const ir::SymInt size = b.sizes(self)[dim];
  const int64_t total = hint_of(b, size);
  if (split_size <= 0) c.fail("split_size must be positive");
  const int64_t chunks = std::max<int64_t>(1, (total + split_size - 1) / split_size);
  Dims sizes(chunks - 1, ir::SymInt(split_size));
  sizes.push_back(b.hints().sym(size.expr - symbolic::Expr(split_size * (chunks - 1))));
  std::vector<ir::Argument> args{self, b.sym_list(sizes)};
  if (const int64_t given = c.integer_or(2, "dim", 0); given != 0) args.push_back(given);
  return b.call("aten.split_with_sizes.default", std::move(args));
}

ir::Argument unbind(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const int64_t dim = wrap_dim(c.integer_or(1, "dim", 0), b.rank(self));
  const int64_t n = hint_of(b, b.sizes(self)[dim]);
  std::vector<ir::Node*> slices;
  for (int64_t i = 0; i < n; ++i) slices.push_back(b.call1("aten.slice.Tensor", {self, dim, i, i + 1}));
  ir::ArgumentList out{{}, true};
  for (ir::Node* s : slices) out.items.push_back(b.call("aten.squeeze.dims", {s, ints({dim})}));
  return out;
}

ir::Argument squeeze_all(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  std::vector<int64_t> dims(b.rank(self));
  std::iota(dims.begin(), dims.end(), 0);
  return b.call("aten.squeeze.dims", {self, ints(dims)});
}

ir::Argument squeeze_dim(Rewriter& b, const OpCall& c) {
  return b.call("aten.squeeze.dims", {c.tensor(0, "self"), ints({c.integer(1, "dim")})});
}

ir::Argument stack(Rewriter& b, const OpCall& c) {
  const std::vector<ir::Node*> tensors = c.tensors(0, "tensors");
  if (tensors.empty()) c.fail("stack expects a non-empty list");
  const size_t rank = b.rank(tensors[0]);
  const int64_t given = c.integer_or(1, "dim", 0);
  const int64_t dim = wrap_dim(given, rank + 1);
  ir::ArgumentList list;
  if (dim < int64_t(rank)) {
    Dims sizes = b.sizes(tensors[0]);
    sizes.insert(sizes.begin() + dim, ir::SymInt(int64_t(tensors.size())));
    for (ir::Node* t : tensors) list.items.push_back(t);
    std::vector<ir::Argument> args{list};
    if (dim != 0) args.push_back(dim);
    ir::Node* cat = b.call1("aten.cat.default", std::move(args));
    return b.call("aten.view.default", {cat, b.sym_list(sizes)});
  }
  for (ir::Node* t : tensors) list.items.push_back(b.call("aten.unsqueeze.default", {t, dim}));
  return b.call("aten.cat.default", {list, given});
}

/// torch._refs.select_scatter: where(arange(n).view(1, .., -1, .., 1) == index,
/// src.unsqueeze(dim).expand(sizes), self) (functionalization writes a select back with it).
ir::Argument select_scatter(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  ir::Node* src = c.tensor(1, "src");
  const Dims sizes = b.sizes(self);
  const int64_t dim = wrap_dim(c.integer_or(2, "dim", 0), sizes.size());
  ir::Argument index = c.value_or(3, "index", int64_t{0});
  if (const auto* i = std::get_if<int64_t>(&index.v); i && *i < 0 && sizes[dim].is_static())
    index = *i + hint_of(b, sizes[dim]);
  const std::vector<ir::NamedArgument> factory{kw("layout", ir::Layout::Strided), kw("device", b.meta(self).device),
                                               kw("pin_memory", false)};
  ir::Node* positions = b.call1("aten.arange.start_step", {int64_t{0}, b.sym(sizes[dim])}, factory);
  std::vector<int64_t> mask_shape(sizes.size(), 1);
  mask_shape[dim] = -1;
  ir::Node* mask = b.call1("aten.eq.Scalar", {b.call1("aten.view.default", {positions, ints(mask_shape)}), index});
  ir::Node* spread = b.call1("aten.expand.default", {b.call1("aten.unsqueeze.default", {src, dim}), b.sym_list(sizes)});
  return b.call("aten.where.self", {mask, spread, self});
}

}  // namespace

void add_functional_view_decompositions(DecompositionTable& t) {
  const char* f = "view";
  t.set(rule("aten.reshape.default", f, "at::native::reshape_symint", reshape));
  t.set(rule("aten.flatten.using_ints", f, "at::native::flatten", flatten));
  t.set(rule("aten.reshape_as.default", f, "at::native::reshape_as", reshape_as));
  t.set(rule("aten.contiguous.default", f, "at::native::contiguous", contiguous));
  t.set(rule("aten.view_as.default", f, "at::native::view_as", view_as));
  t.set(rule("aten.expand_as.default", f, "at::native::expand_as", expand_as));
  t.set(rule("aten.unflatten.int", f, "at::native::unflatten", unflatten));
  t.set(rule("aten.narrow.default", f, "at::native::narrow_symint", narrow));
  t.set(rule("aten.chunk.default", f, "at::native::chunk", chunk));
  t.set(rule("aten.swapaxes.default", f, "at::native::swapaxes", swapaxes));
  t.set(rule("aten.broadcast_to.default", f, "at::native::broadcast_to_symint", broadcast_to));
  t.set(rule("aten.numpy_T.default", f, "at::native::numpy_T", numpy_t));
  t.set(rule("aten.movedim.int", f, "at::native::movedim", movedim));
  t.set(rule("aten.to.dtype", f, "at::native::to (dtype)", to_dtype));
  // to.dtype_layout(self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format)
  t.set(rule("aten.to.dtype_layout", f, "at::native::to (dtype_layout)", to_options(SIZE_MAX, SIZE_MAX, SIZE_MAX)));
  // to.device(self, device, dtype, non_blocking, copy, memory_format)
  t.set(rule("aten.to.device", f, "at::native::to (device)", to_options(1, 2, 4)));
}

void add_view_decompositions(DecompositionTable& t) {
  const char* f = "view";
  t.set(rule("aten.transpose.int", f, "torch._refs.transpose", transpose));
  t.set(rule("aten.t.default", f, "torch._refs.t", t_default));
  t.set(rule("aten._unsafe_view.default", f, "torch._decomp _unsafe_view", unsafe_view));
  t.set(rule("aten.split.Tensor", f, "torch._decomp.decompositions.split", split));
  t.set(rule("aten.unbind.int", f, "torch._refs.unbind", unbind));
  t.set(rule("aten.squeeze.default", f, "torch._decomp squeeze_default", squeeze_all));
  t.set(rule("aten.squeeze.dim", f, "torch._decomp squeeze_default", squeeze_dim));
  t.set(rule("aten.stack.default", f, "torch._refs.stack", stack));
  t.set(rule("aten.select_scatter.default", f, "torch._refs.select_scatter", select_scatter));
}

}  // namespace exportlens::passes

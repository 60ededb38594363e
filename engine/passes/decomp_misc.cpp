// Reductions, factories and scalars: torch's Python decompositions of
// sum, rsub, square, clamp_min/max, zeros/ones(_like), new_ones/zeros/full,
// arange, masked_fill, where with a scalar operand, floor_divide, empty_like, and the composite kernels of item, type_as, pad
// (constant), var and diff; ops that are others under another name
// (min.other is minimum, __and__ is bitwise_and, lift_fresh_copy is clone,
// detach and lift_fresh are alias).
#include <algorithm>
#include <numeric>

#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

ir::Argument sum_all(Rewriter& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs;
  if (auto dtype = c.dtype(1, "dtype")) kwargs.push_back(kw("dtype", *dtype));
  return b.call("aten.sum.dim_IntList", {c.tensor(0, "self"), ir::ArgumentList{}}, std::move(kwargs));
}

/// rsub(self, other, alpha) = other - alpha * self
ir::Argument rsub(Rewriter& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs;
  if (c.has(2, "alpha")) kwargs.push_back(kw("alpha", *c.get(2, "alpha")));
  return b.call("aten.sub.Tensor", {c.value_or(1, "other", ir::None{}), c.tensor(0, "self")}, std::move(kwargs));
}

ir::Argument square(Rewriter& b, const OpCall& c) {
  return b.call("aten.pow.Tensor_Scalar", {c.tensor(0, "self"), int64_t{2}});
}

ir::Argument clamp_min(Rewriter& b, const OpCall& c) {
  return b.call("aten.clamp.default", {c.tensor(0, "self"), c.value_or(1, "min", ir::None{})});
}

ir::Argument clamp_max(Rewriter& b, const OpCall& c) {
  return b.call("aten.clamp.default", {c.tensor(0, "self"), ir::None{}, c.value_or(1, "max", ir::None{})});
}

ir::Argument item(Rewriter& b, const OpCall& c) {
  return b.call("aten._local_scalar_dense.default", {c.tensor(0, "self")});
}

/// self.to(other.options()): a copy when the dtype differs.
ir::Argument type_as(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const ir::TensorMeta& other = b.meta(c.tensor(1, "other"));
  if (other.dtype == b.dtype(self)) return self;
  return b.call("aten._to_copy.default", {self},
                {kw("dtype", other.dtype), kw("layout", ir::Layout::Strided), kw("device", other.device)});
}

const ir::NamedArgument* find_kw(const OpCall& c, std::string_view name) {
  for (const auto& k : c.kwargs)
    if (k.name == name) return &k;
  return nullptr;
}

/// zeros / ones(size, *, dtype, layout, device, pin_memory) -> full with every option spelled out.
DecompositionFn filled(int64_t value) {
  return [value](Rewriter& b, const OpCall& c) -> ir::Argument {
    const auto* dtype = find_kw(c, "dtype");
    const auto* layout = find_kw(c, "layout");
    const auto* device = find_kw(c, "device");
    const auto* pin = find_kw(c, "pin_memory");
    const bool is_bool = dtype && std::get_if<ir::ScalarType>(&dtype->value.v) &&
                         std::get<ir::ScalarType>(dtype->value.v) == ir::ScalarType::Bool;
    const ir::Argument fill = is_bool ? ir::Argument(value != 0) : ir::Argument(value);
    return b.call("aten.full.default", {c.value_or(0, "size", ir::ArgumentList{}), fill},
                  {kw("dtype", dtype && !dtype->value.is_none() ? dtype->value : ir::Argument(ir::ScalarType::Float)),
                   kw("layout", layout && !layout->value.is_none() ? layout->value : ir::Argument(ir::Layout::Strided)),
                   kw("device", device && !device->value.is_none() ? device->value : ir::Argument(ir::Device{})),
                   kw("pin_memory", pin && !pin->value.is_none() ? pin->value : ir::Argument(false))});
  };
}

/// zeros_like / ones_like(self, *, dtype, layout, device, pin_memory, memory_format) -> full_like.
DecompositionFn filled_like(int64_t value) {
  return [value](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* self = c.tensor(0, "self");
    std::vector<ir::NamedArgument> kwargs;
    ir::ScalarType dtype = b.dtype(self);
    for (const char* name : {"dtype", "layout", "device"})
      if (const auto* k = find_kw(c, name); k && !k->value.is_none()) {
        kwargs.push_back(*k);
        if (auto* t = std::get_if<ir::ScalarType>(&k->value.v)) dtype = *t;
      }
    const auto* pin = find_kw(c, "pin_memory");
    kwargs.push_back(kw("pin_memory", pin && !pin->value.is_none() ? pin->value : ir::Argument(false)));
    const auto* format = find_kw(c, "memory_format");
    kwargs.push_back(kw("memory_format", format && !format->value.is_none() ? format->value
                                                                            : ir::Argument(ir::MemoryFormat::PreserveFormat)));
    const ir::Argument fill = dtype == ir::ScalarType::Bool ? ir::Argument(value != 0) : ir::Argument(value);
    return b.call("aten.full_like.default", {self, fill}, std::move(kwargs));
  };
}

/// arange(end) / arange(start, end) -> arange.start_step(start, end, ...).
DecompositionFn arange(bool has_start) {
  return [has_start](Rewriter& b, const OpCall& c) -> ir::Argument {
    const ir::Argument start = has_start ? c.value_or(0, "start", int64_t{0}) : ir::Argument(int64_t{0});
    const ir::Argument end = c.value_or(has_start ? 1 : 0, "end", int64_t{0});
    std::vector<ir::NamedArgument> kwargs;
    if (const auto* k = find_kw(c, "dtype"); k && !k->value.is_none()) kwargs.push_back(*k);
    const auto* layout = find_kw(c, "layout");
    kwargs.push_back(kw("layout", layout && !layout->value.is_none() ? layout->value : ir::Argument(ir::Layout::Strided)));
    if (const auto* k = find_kw(c, "device"); k && !k->value.is_none()) kwargs.push_back(*k);
    const auto* pin = find_kw(c, "pin_memory");
    kwargs.push_back(kw("pin_memory", pin && !pin->value.is_none() ? pin->value : ir::Argument(false)));
    return b.call("aten.arange.start_step", {start, end}, std::move(kwargs));
  };
}

/// F.pad(mode='constant') -> constant_pad_nd(self, pad, value or 0.0).
ir::Argument pad(Rewriter& b, const OpCall& c) {
  const std::string mode = c.string_or(2, "mode", "constant");
  if (mode != "constant") c.fail("pad mode '" + mode + "' is not supported");
  return b.call("aten.constant_pad_nd.default",
                {c.tensor(0, "self"), c.value_or(1, "pad", ir::ArgumentList{}), c.number_or(3, "value", 0.0)});
}

/// masked_fill(self, mask, value) -> where(mask, scalar_tensor(value), self).
ir::Argument masked_fill_scalar(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const ir::TensorMeta& m = b.meta(self);
  const double value = c.number_or(2, "value", 0.0);
  ir::Argument literal = value;
  if (m.dtype == ir::ScalarType::Bool) literal = value != 0.0;
  else if (!ir::is_floating(m.dtype)) literal = int64_t(value);
  ir::Node* fill = b.call1("aten.scalar_tensor.default", {literal},
                           {kw("dtype", m.dtype), kw("layout", ir::Layout::Strided), kw("device", m.device)});
  return b.call("aten.where.self", {c.tensor(1, "mask"), fill, self});
}

/// The scalar of where.ScalarOther / ScalarSelf as the tensor torch's refs make of it:
/// scalar_tensor with the dtype the tensor operand and the scalar promote to.
ir::Node* scalar_operand(Rewriter& b, const OpCall& c, size_t index, const char* name, ir::Node* tensor) {
  const ir::TensorMeta& m = b.meta(tensor);
  const ir::Argument* value = c.get(index, name);
  if (!value || value->is_none()) c.fail(std::string("where needs the scalar '") + name + "'");
  ir::ScalarType dtype = m.dtype;
  if (std::get_if<double>(&value->v) && !ir::is_floating(m.dtype)) dtype = ir::ScalarType::Float;
  else if (std::get_if<int64_t>(&value->v) && m.dtype == ir::ScalarType::Bool) dtype = ir::ScalarType::Long;
  return b.call1("aten.scalar_tensor.default", {*value},
                 {kw("dtype", dtype), kw("layout", ir::Layout::Strided), kw("device", m.device)});
}

/// where(condition, self, other scalar) -> where.self(condition, self, scalar_tensor(other)).
ir::Argument where_scalar_other(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(1, "self");
  ir::Node* other = scalar_operand(b, c, 2, "other", self);
  return b.call("aten.where.self", {c.tensor(0, "condition"), self, other});
}

/// where(condition, self scalar, other) -> where.self(condition, scalar_tensor(self), other).
ir::Argument where_scalar_self(Rewriter& b, const OpCall& c) {
  ir::Node* other = c.tensor(2, "other");
  ir::Node* self = scalar_operand(b, c, 1, "self", other);
  return b.call("aten.where.self", {c.tensor(0, "condition"), self, other});
}

/// floor_divide(self, other) -> div(self, other, rounding_mode='floor') (torch._refs.floor_divide).
ir::Argument floor_divide(Rewriter& b, const OpCall& c) {
  return b.call("aten.div.Tensor_mode", {c.tensor(0, "self"), c.value_or(1, "other", ir::None{})},
                {kw("rounding_mode", std::string("floor"))});
}

/// empty_like (torch._refs.empty_like): empty_permuted with self's sizes in the order of
/// its strides (memory_format=preserve), else empty with the format asked for.
ir::Argument empty_like(Rewriter& b, const OpCall& c) {
  ir::Node* self = c.tensor(0, "self");
  const ir::TensorMeta& m = b.meta(self);
  auto option = [&](const char* name, ir::Argument fallback) {
    const auto* k = find_kw(c, name);
    return k && !k->value.is_none() ? k->value : fallback;
  };
  std::vector<ir::NamedArgument> kwargs{kw("dtype", option("dtype", m.dtype)), kw("layout", option("layout", ir::Layout::Strided)),
                                        kw("device", option("device", m.device)),
                                        kw("pin_memory", option("pin_memory", false))};
  const ir::Argument format = option("memory_format", ir::MemoryFormat::PreserveFormat);
  const auto* f = std::get_if<ir::MemoryFormat>(&format.v);
  if (f && *f != ir::MemoryFormat::PreserveFormat) {
    kwargs.push_back(kw("memory_format", format));
    return b.call("aten.empty.memory_format", {b.sym_list(m.sizes)}, std::move(kwargs));
  }
  // compute_elementwise_output_logical_to_physical_perm: dims from the outermost stride in
  std::vector<int64_t> perm(m.rank());
  std::iota(perm.begin(), perm.end(), 0);
  const Dims strides = preserve_format_strides(m, b.hints());
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int64_t x, int64_t y) { return hint_of(b, strides[size_t(x)]) > hint_of(b, strides[size_t(y)]); });
  return b.call("aten.empty_permuted.default", {b.sym_list(m.sizes), ints(perm)}, std::move(kwargs));
}

/// var(self, dim, unbiased=True, keepdim=False) -> var.correction(self, dim, *, correction, keepdim)
ir::Argument var_dim(Rewriter& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs{kw("correction", int64_t{c.boolean_or(2, "unbiased", true) ? 1 : 0})};
  if (c.boolean_or(3, "keepdim", false)) kwargs.push_back(kw("keepdim", true));
  return b.call("aten.var.correction", {c.tensor(0, "self"), c.value_or(1, "dim", ir::None{})}, std::move(kwargs));
}

/// a.new_ones(size) / new_zeros / new_full(size, value) (torch._refs): full(size, value) with a's
/// dtype, layout and device unless given; ones and zeros fill True / False for bool.
DecompositionFn new_filled(std::optional<int64_t> value) {
  return [value](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* self = c.tensor(0, "self");
    const ir::TensorMeta& m = b.meta(self);
    const auto* dtype = find_kw(c, "dtype");
    const auto* layout = find_kw(c, "layout");
    const auto* device = find_kw(c, "device");
    const auto* pin = find_kw(c, "pin_memory");
    const ir::Argument d = dtype && !dtype->value.is_none() ? dtype->value : ir::Argument(m.dtype);
    const bool is_bool = std::get_if<ir::ScalarType>(&d.v) && std::get<ir::ScalarType>(d.v) == ir::ScalarType::Bool;
    const ir::Argument fill = value ? (is_bool ? ir::Argument(*value != 0) : ir::Argument(*value))
                                    : c.value_or(2, "fill_value", int64_t{0});
    return b.call("aten.full.default", {c.value_or(1, "size", ir::ArgumentList{}), fill},
                  {kw("dtype", d),
                   kw("layout", layout && !layout->value.is_none() ? layout->value : ir::Argument(ir::Layout::Strided)),
                   kw("device", device && !device->value.is_none() ? device->value : ir::Argument(m.device)),
                   kw("pin_memory", pin && !pin->value.is_none() ? pin->value : ir::Argument(false))});
  };
}

/// An op that is another op under another name (a.__and__(b) is bitwise_and, min(a, b) is
/// minimum, lift_fresh_copy is clone): the same arguments, the other op.
DecompositionFn same_as(const char* op) {
  return [op](Rewriter& b, const OpCall& c) -> ir::Argument { return b.call(op, c.args, c.kwargs); };
}

/// at::native::diff(self, n, dim, prepend, append): cat([prepend, self, append], dim), then n
/// times narrow(1, len) - narrow(0, len) (logical_xor for bool), the right operand made first
/// as the C++ composite evaluates it.
ir::Argument diff(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  const int64_t n = c.integer_or(1, "n", 1);
  const int64_t dim_arg = c.integer_or(2, "dim", -1);
  const int64_t dim = wrap_dim(dim_arg, b.rank(x));
  ir::Node* prepend = c.optional_tensor(3, "prepend");
  ir::Node* append = c.optional_tensor(4, "append");
  if (prepend || append) {
    ir::ArgumentList parts;
    if (prepend) parts.items.push_back(prepend);
    parts.items.push_back(x);
    if (append) parts.items.push_back(append);
    x = b.call1("aten.cat.default", {parts, dim_arg});
  }
  ir::SymInt len = sym_add(b.sizes(x)[dim], ir::SymInt(int64_t{-1}));
  const bool is_bool = b.dtype(x) == ir::ScalarType::Bool;
  for (int64_t i = 0; i < n; ++i) {
    // torch's trace: the 1 + len of narrow(1, len) first, then the two slices
    const ir::Argument high_end = b.sym_add_args(ir::SymInt(int64_t{1}), len);
    ir::Node* low = b.call1("aten.slice.Tensor", {x, dim_arg, int64_t{0}, b.sym(len)});
    ir::Node* high = b.call1("aten.slice.Tensor", {x, dim_arg, int64_t{1}, high_end});
    x = b.call1(is_bool ? "aten.logical_xor.default" : "aten.sub.Tensor", {high, low});
    len = sym_add(len, ir::SymInt(int64_t{-1}));
  }
  return x;
}

}  // namespace

void add_misc_decompositions(DecompositionTable& t) {
  const char* f = "misc";
  t.set(rule("aten.sum.default", f, "torch._decomp sum_default", sum_all));
  t.set(rule("aten.rsub.Scalar", f, "torch._refs.rsub", rsub));
  t.set(rule("aten.rsub.Tensor", f, "torch._refs.rsub", rsub));
  t.set(rule("aten.square.default", f, "at::native::square", square));
  t.set(rule("aten.clamp_min.default", f, "torch._refs.clamp_min", clamp_min));
  t.set(rule("aten.clamp_max.default", f, "torch._refs.clamp_max", clamp_max));
  t.set(rule("aten.item.default", f, "at::native::item", item));
  t.set(rule("aten.type_as.default", f, "at::native::type_as", type_as));
  t.set(rule("aten.zeros.default", f, "torch._refs.zeros", filled(0)));
  t.set(rule("aten.ones.default", f, "torch._refs.ones", filled(1)));
  t.set(rule("aten.zeros_like.default", f, "torch._refs.zeros_like", filled_like(0)));
  t.set(rule("aten.ones_like.default", f, "torch._refs.ones_like", filled_like(1)));
  t.set(rule("aten.arange.default", f, "torch._decomp arange_default", arange(false)));
  t.set(rule("aten.arange.start", f, "torch._decomp arange_start", arange(true)));
  t.set(rule("aten.pad.default", f, "at::native::pad (constant)", pad));
  t.set(rule("aten.masked_fill.Scalar", f, "torch._refs.masked_fill", masked_fill_scalar));
  t.set(rule("aten.where.ScalarOther", f, "torch._refs.where", where_scalar_other));
  t.set(rule("aten.where.ScalarSelf", f, "torch._refs.where", where_scalar_self));
  t.set(rule("aten.floor_divide.default", f, "torch._refs.floor_divide", floor_divide));
  t.set(rule("aten.floor_divide.Scalar", f, "torch._refs.floor_divide", floor_divide));
  t.set(rule("aten.empty_like.default", f, "torch._refs.empty_like", empty_like));
  t.set(rule("aten.var.dim", f, "at::native::var", var_dim));
  t.set(rule("aten.new_ones.default", f, "torch._refs.new_ones", new_filled(1)));
  t.set(rule("aten.new_zeros.default", f, "torch._refs.new_zeros", new_filled(0)));
  t.set(rule("aten.new_full.default", f, "torch._refs.new_full", new_filled(std::nullopt)));
  t.set(rule("aten.min.other", f, "at::native::min (other)", same_as("aten.minimum.default")));
  t.set(rule("aten.max.other", f, "at::native::max (other)", same_as("aten.maximum.default")));
  t.set(rule("aten.__and__.Tensor", f, "at::native::__and__", same_as("aten.bitwise_and.Tensor")));
  t.set(rule("aten.__or__.Tensor", f, "at::native::__or__", same_as("aten.bitwise_or.Tensor")));
  t.set(rule("aten.__xor__.Tensor", f, "at::native::__xor__", same_as("aten.bitwise_xor.Tensor")));
  t.set(rule("aten.diff.default", f, "at::native::diff", diff));
  // torch._decomp's nop_decomposition: Core ATen has no detach, only its alias.
  for (const char* op : {"aten.detach.default", "aten.lift_fresh.default"})
    t.set(rule(op, f, "torch._decomp nop_decomposition", same_as("aten.alias.default")));
}

void add_functional_misc_decompositions(DecompositionTable& t) {
  // torch decomposes it while functionalizing (run_decompositions({}) prints clone too)
  t.set(rule("aten.lift_fresh_copy.default", "misc", "torch._decomp lift_fresh_copy", same_as("aten.clone.default")));
}

}  // namespace exportlens::passes

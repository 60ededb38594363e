// Reductions, factories and scalars: torch's Python decompositions of
// sum, rsub, square, clamp_min/max, zeros/ones(_like), arange, masked_fill
// and the composite kernels of item, type_as, pad (constant) and var.
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

ir::Argument sum_all(GraphBuilder& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs;
  if (auto dtype = c.dtype(1, "dtype")) kwargs.push_back(kw("dtype", *dtype));
  return b.call("aten.sum.dim_IntList", {c.tensor(0, "self"), ir::ArgumentList{}}, std::move(kwargs));
}

/// rsub(self, other, alpha) = other - alpha * self
ir::Argument rsub(GraphBuilder& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs;
  if (c.has(2, "alpha")) kwargs.push_back(kw("alpha", *c.get(2, "alpha")));
  return b.call("aten.sub.Tensor", {c.value_or(1, "other", ir::None{}), c.tensor(0, "self")}, std::move(kwargs));
}

ir::Argument square(GraphBuilder& b, const OpCall& c) {
  return b.call("aten.pow.Tensor_Scalar", {c.tensor(0, "self"), int64_t{2}});
}

ir::Argument clamp_min(GraphBuilder& b, const OpCall& c) {
  return b.call("aten.clamp.default", {c.tensor(0, "self"), c.value_or(1, "min", ir::None{})});
}

ir::Argument clamp_max(GraphBuilder& b, const OpCall& c) {
  return b.call("aten.clamp.default", {c.tensor(0, "self"), ir::None{}, c.value_or(1, "max", ir::None{})});
}

ir::Argument item(GraphBuilder& b, const OpCall& c) {
  return b.call("aten._local_scalar_dense.default", {c.tensor(0, "self")});
}

/// self.to(other.options()): a copy when the dtype differs.
ir::Argument type_as(GraphBuilder& b, const OpCall& c) {
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
  return [value](GraphBuilder& b, const OpCall& c) -> ir::Argument {
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
  return [value](GraphBuilder& b, const OpCall& c) -> ir::Argument {
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
  return [has_start](GraphBuilder& b, const OpCall& c) -> ir::Argument {
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
ir::Argument pad(GraphBuilder& b, const OpCall& c) {
  const std::string mode = c.string_or(2, "mode", "constant");
  if (mode != "constant") c.fail("pad mode '" + mode + "' is not supported");
  return b.call("aten.constant_pad_nd.default",
                {c.tensor(0, "self"), c.value_or(1, "pad", ir::ArgumentList{}), c.number_or(3, "value", 0.0)});
}

/// masked_fill(self, mask, value) -> where(mask, scalar_tensor(value), self).
ir::Argument masked_fill_scalar(GraphBuilder& b, const OpCall& c) {
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

/// var(self, dim, unbiased=True, keepdim=False) -> var.correction(self, dim, *, correction, keepdim)
ir::Argument var_dim(GraphBuilder& b, const OpCall& c) {
  std::vector<ir::NamedArgument> kwargs{kw("correction", int64_t{c.boolean_or(2, "unbiased", true) ? 1 : 0})};
  if (c.boolean_or(3, "keepdim", false)) kwargs.push_back(kw("keepdim", true));
  return b.call("aten.var.correction", {c.tensor(0, "self"), c.value_or(1, "dim", ir::None{})}, std::move(kwargs));
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
  t.set(rule("aten.var.dim", f, "at::native::var", var_dim));
}

}  // namespace exportlens::passes

#include "engine/passes/view_ops.h"

#include <cstdint>

#include "engine/passes/decomp_helpers.h"
#include "engine/passes/graph_builder.h"

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

const ViewOp kViewOps[] = {
    {"view", reshape_back},          {"_unsafe_view", reshape_back}, {"reshape", reshape_back},
    {"select", select_back},         {"slice", slice_back},          {"permute", permute_back},
    {"transpose", transpose_back},   {"t", t_back},                  {"unsqueeze", unsqueeze_back},
    {"squeeze", squeeze_back},       {"alias", identity_back, true}, {"detach", identity_back, true},
    {"expand", nullptr},             {"flatten", reshape_back},      {"unflatten", reshape_back},
    {"view_as", reshape_back},       {"lift_fresh", identity_back, true},
};

}  // namespace

const ViewOp* find_view_op(const ir::Target& t) {
  if (!t.is_torch_op()) return nullptr;
  const std::string name = t.op_name();
  for (const ViewOp& v : kViewOps)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace exportlens::passes

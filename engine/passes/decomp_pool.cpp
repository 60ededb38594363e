// Pooling: max_pool2d -> max_pool2d_with_indices[0]; the 1-D poolings go
// through their 2-D forms on an unsqueezed input (at::native max_pool1d /
// avg_pool1d / adaptive_avg_pool1d); adaptive_avg_pool2d to a 1x1 output is
// a mean over the last two dimensions (as_strided back to channels-last for a
// channels-last input), else _adaptive_avg_pool2d.
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

ir::Argument max_pool2d(Rewriter& b, const OpCall& c) {
  std::vector<ir::Argument> args = c.args;
  return b.call_n("aten.max_pool2d_with_indices.default", std::move(args), c.kwargs)[0];
}

std::vector<int64_t> first_or(const OpCall& c, size_t i, std::string_view name, std::vector<int64_t> fallback) {
  std::vector<int64_t> v = c.integers_or(i, name, fallback);
  return v.empty() ? fallback : v;
}

ir::Argument max_pool1d(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  const auto kernel = c.integers(1, "kernel_size");
  const auto stride = first_or(c, 2, "stride", kernel);
  const auto padding = first_or(c, 3, "padding", {0});
  const auto dilation = first_or(c, 4, "dilation", {1});
  const bool ceil_mode = c.boolean_or(5, "ceil_mode", false);
  ir::Node* x2 = b.call1("aten.unsqueeze.default", {x, int64_t{-2}});
  std::vector<ir::Argument> args{x2, ints({1, kernel[0]}), ints({1, stride[0]}), ints({0, padding[0]}),
                                 ints({1, dilation[0]}), ceil_mode};
  drop_trailing_defaults(args, {ints({0, 0}), ints({1, 1}), false}, 3);
  const auto outs = b.call_n("aten.max_pool2d_with_indices.default", std::move(args));
  ir::Node* out = b.call1("aten.squeeze.dim", {outs[0], int64_t{-2}});
  b.call1("aten.squeeze.dim", {outs[1], int64_t{-2}});  // the indices, unused: max_pool1d returns the values
  return out;
}

ir::Argument avg_pool1d(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  const auto kernel = c.integers(1, "kernel_size");
  const auto stride = first_or(c, 2, "stride", kernel);
  const auto padding = first_or(c, 3, "padding", {0});
  const bool ceil_mode = c.boolean_or(4, "ceil_mode", false);
  const bool count_include_pad = c.boolean_or(5, "count_include_pad", true);
  ir::Node* x2 = b.call1("aten.unsqueeze.default", {x, int64_t{-2}});
  std::vector<ir::Argument> args{x2, ints({1, kernel[0]}), ints({1, stride[0]}), ints({0, padding[0]}), ceil_mode,
                                 count_include_pad};
  drop_trailing_defaults(args, {ints({0, 0}), false, true}, 3);
  ir::Node* out = b.call1("aten.avg_pool2d.default", std::move(args));
  return b.call("aten.squeeze.dim", {out, int64_t{-2}});
}

/// c10::is_channels_last_strides_2d_s4 on the example values: what
/// suggest_memory_format() answers for a 4-D tensor.
bool channels_last_strides(const Rewriter& b, const ir::TensorMeta& m) {
  if (m.rank() != 4 || m.strides.size() != 4) return false;
  if (hint_of(b, m.strides[1]) == 0) return false;
  int64_t min = 0;
  for (size_t d : {size_t{1}, size_t{3}, size_t{2}, size_t{0}}) {
    const int64_t size = hint_of(b, m.sizes[d]);
    const int64_t stride = hint_of(b, m.strides[d]);
    if (size == 0 || stride < min) return false;
    if (d == 0 && min == hint_of(b, m.strides[1])) return false;
    min = stride;
    if (size > 1) min *= size;
  }
  return true;
}

/// A 1x1 output is a mean over H and W; a channels-last input gets the
/// channels-last strides back (the kernel's out.as_strided_, functionalized).
ir::Argument adaptive_avg_pool2d(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  const auto size = c.integers(1, "output_size");
  if (size.size() == 2 && size[0] == 1 && size[1] == 1) {
    ir::Node* out = b.call1("aten.mean.dim", {x, ints({-1, -2}), true});
    const ir::TensorMeta& m = b.meta(x);
    if (!channels_last_strides(b, m)) return out;
    const ir::SymInt& n = m.sizes[0];
    const ir::SymInt& ch = m.sizes[1];
    return b.call("aten.as_strided.default",
                  {out, b.sym_list({n, ch, ir::SymInt(int64_t{1}), ir::SymInt(int64_t{1})}), b.sym_list({ch, ir::SymInt(int64_t{1}), ch, ch})});
  }
  return b.call("aten._adaptive_avg_pool2d.default", {x, ints(size)});
}

ir::Argument adaptive_avg_pool1d(Rewriter& b, const OpCall& c) {
  ir::Node* x = c.tensor(0, "self");
  const auto size = c.integers(1, "output_size");
  if (size.size() != 1) c.fail("adaptive_avg_pool1d: output_size must be a single int");
  ir::Node* x2 = b.call1("aten.unsqueeze.default", {x, int64_t{-2}});
  ir::Node* out = b.call1("aten.adaptive_avg_pool2d.default", {x2, ints({1, size[0]})});
  return b.call("aten.squeeze.dim", {out, int64_t{-2}});
}

}  // namespace

void add_pool_decompositions(DecompositionTable& t) {
  const char* f = "pool";
  t.set(rule("aten.max_pool2d.default", f, "at::native::max_pool2d", max_pool2d));
  t.set(rule("aten.max_pool1d.default", f, "at::native::max_pool1d_with_indices", max_pool1d));
  t.set(rule("aten.avg_pool1d.default", f, "at::native::avg_pool1d", avg_pool1d));
  t.set(rule("aten.adaptive_avg_pool2d.default", f, "at::native::adaptive_avg_pool2d_symint", adaptive_avg_pool2d));
  t.set(rule("aten.adaptive_avg_pool1d.default", f, "at::native::adaptive_avg_pool1d", adaptive_avg_pool1d));
}

}  // namespace exportlens::passes

// Convolutions: conv1d/2d/3d (also with padding='same'/'valid') and
// conv_transpose1d/2d/3d lower to aten.convolution, as LibTorch's composite
// kernels do (an unbatched input is unsqueezed first and squeezed after).
#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

/// An int[N] argument, its one-element form broadcast to N entries.
std::vector<int64_t> spatial(const OpCall& c, size_t index, std::string_view name, size_t n, int64_t fallback) {
  std::vector<int64_t> v = c.integers_or(index, name, {fallback});
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  return v;
}

struct Batched {
  ir::Node* input;
  bool batched;
};

/// at::native batchify: an input without a batch dimension gets one.
Batched batchify(Rewriter& b, ir::Node* input, size_t spatial_dims) {
  if (b.rank(input) == spatial_dims + 1) return {b.call1("aten.unsqueeze.default", {input, int64_t{0}}), false};
  return {input, true};
}

ir::Argument unbatch(Rewriter& b, const Batched& in, ir::Argument out) {
  if (in.batched) return out;
  return b.call("aten.squeeze.dim", {out, int64_t{0}});
}

ir::Argument convolution(Rewriter& b, ir::Node* input, const ir::Argument& weight, const ir::Argument& bias,
                         ir::Argument stride, ir::Argument padding, ir::Argument dilation, bool transposed,
                         ir::Argument output_padding, int64_t groups) {
  return b.call("aten.convolution.default",
                {input, weight, bias, stride, padding, dilation, transposed, output_padding, groups});
}

DecompositionFn conv_nd(size_t n) {
  return [n](Rewriter& b, const OpCall& c) -> ir::Argument {
    const Batched in = batchify(b, c.tensor(0, "input"), n);
    const auto out = convolution(b, in.input, c.value_or(1, "weight", ir::None{}), c.value_or(2, "bias", ir::None{}),
                                 ints(spatial(c, 3, "stride", n, 1)), ints(spatial(c, 4, "padding", n, 0)),
                                 ints(spatial(c, 5, "dilation", n, 1)), false, ints(std::vector<int64_t>(n, 0)),
                                 c.integer_or(6, "groups", 1));
    return unbatch(b, in, out);
  };
}

/// conv*d(..., padding='same' | 'valid'): at::native::_convolution_mode.
DecompositionFn conv_nd_padding_mode(size_t n) {
  return [n](Rewriter& b, const OpCall& c) -> ir::Argument {
    const Batched in = batchify(b, c.tensor(0, "input"), n);
    ir::Node* weight = c.tensor(1, "weight");
    const ir::Argument bias = c.value_or(2, "bias", ir::None{});
    const auto stride = spatial(c, 3, "stride", n, 1);
    const std::string mode = c.string_or(4, "padding", "valid");
    const auto dilation = spatial(c, 5, "dilation", n, 1);
    const int64_t groups = c.integer_or(6, "groups", 1);
    if (mode == "valid")
      return unbatch(b, in, convolution(b, in.input, weight, bias, ints(stride), ints({0}), ints(dilation), false,
                                        ints({0}), groups));
    if (mode != "same") c.fail("padding must be 'same' or 'valid', got '" + mode + "'");
    for (int64_t s : stride)
      if (s != 1) c.fail("padding='same' is not supported for strided convolutions");
    const Dims kernel = b.sizes(weight);
    std::vector<int64_t> left(n), right(n);
    bool symmetric = true;
    for (size_t i = 0; i < n; ++i) {
      const int64_t total = dilation[i] * (hint_of(b, kernel[i + 2]) - 1);
      left[i] = total / 2;
      right[i] = total - left[i];
      symmetric = symmetric && left[i] == right[i];
    }
    ir::Node* input = in.input;
    if (!symmetric) {
      std::vector<int64_t> pad(2 * n, 0);
      for (size_t i = 0; i < n; ++i) {
        const int64_t delta = right[i] - left[i];
        const size_t at = 2 * (n - 1 - i);
        if (delta > 0) {
          pad[at + 1] = delta;
        } else {
          pad[at] = delta;
          left[i] = right[i];
        }
      }
      input = b.call1("aten.constant_pad_nd.default", {input, ints(pad)});
    }
    return unbatch(b, in, convolution(b, input, weight, bias, ints(stride), ints(left), ints(dilation), false,
                                      ints(std::vector<int64_t>(n, 0)), groups));
  };
}

/// conv_transpose*d(input, weight, bias, stride, padding, output_padding, groups, dilation)
DecompositionFn conv_transpose_nd(size_t n) {
  return [n](Rewriter& b, const OpCall& c) -> ir::Argument {
    const Batched in = batchify(b, c.tensor(0, "input"), n);
    const auto out = convolution(b, in.input, c.value_or(1, "weight", ir::None{}), c.value_or(2, "bias", ir::None{}),
                                 ints(spatial(c, 3, "stride", n, 1)), ints(spatial(c, 4, "padding", n, 0)),
                                 ints(spatial(c, 7, "dilation", n, 1)), true,
                                 ints(spatial(c, 5, "output_padding", n, 0)), c.integer_or(6, "groups", 1));
    return unbatch(b, in, out);
  };
}

}  // namespace

void add_conv_decompositions(DecompositionTable& t) {
  const char* f = "conv";
  const char* names[] = {"conv1d", "conv2d", "conv3d"};
  for (size_t n = 1; n <= 3; ++n) {
    const std::string name = names[n - 1];
    t.set(rule("aten." + name + ".default", f, "at::native::" + name + "_symint", conv_nd(n)));
    t.set(rule("aten." + name + ".padding", f, "at::native::_convolution_mode", conv_nd_padding_mode(n)));
    const std::string transposed = "conv_transpose" + std::to_string(n) + "d";
    const char* overload = n == 1 ? ".default" : ".input";  // torch's overload names
    t.set(rule("aten." + transposed + overload, f, "at::native::" + transposed + "_symint", conv_transpose_nd(n)));
  }
}

}  // namespace exportlens::passes

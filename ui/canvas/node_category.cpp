#include "ui/canvas/node_category.h"

#include <array>
#include <string_view>

namespace exportlens::ui {
namespace {

using Names = std::initializer_list<std::string_view>;

bool one_of(std::string_view name, Names names) {
  for (auto n : names)
    if (n == name) return true;
  return false;
}

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

bool starts_with(std::string_view name, std::string_view prefix) {
  return name.substr(0, prefix.size()) == prefix;
}

NodeCategory input_category(const ir::Node& node, const ir::GraphSignature& signature) {
  const ir::InputSpec* spec = signature.input_named(node.name);
  if (!spec) return NodeCategory::UserInput;
  switch (spec->kind) {
    case ir::InputKind::UserInput: return NodeCategory::UserInput;
    case ir::InputKind::Parameter: return NodeCategory::Parameter;
    case ir::InputKind::Buffer: return NodeCategory::Buffer;
    case ir::InputKind::ConstantTensor:
    case ir::InputKind::CustomObj:
    case ir::InputKind::Token: return NodeCategory::Constant;
  }
  return NodeCategory::UserInput;
}

// Families of ATen (and prims) ops by name. Reductions come before linear
// algebra so that linalg_vector_norm counts as a reduction.
NodeCategory op_category(std::string_view op) {
  if (one_of(op, {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "var",
                  "std", "var_mean", "std_mean", "norm", "linalg_vector_norm", "logsumexp", "all",
                  "any", "cumsum", "cumprod", "topk", "sort", "median", "mode", "count_nonzero",
                  "nansum", "aminmax", "cummax", "cummin", "frobenius_norm"}))
    return NodeCategory::Reduction;
  if (one_of(op, {"linear", "addmm", "mm", "bmm", "matmul", "baddbmm", "addbmm", "addmv", "mv",
                  "dot", "vdot", "einsum", "tensordot", "outer", "ger", "bilinear", "_addmm_activation",
                  "scaled_dot_product_attention", "chain_matmul", "_int_mm"}) ||
      starts_with(op, "linalg_") || starts_with(op, "_scaled_dot_product") || starts_with(op, "_scaled_mm"))
    return NodeCategory::LinearAlgebra;
  if (contains(op, "convolution") ||
      one_of(op, {"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d", "conv_tbc", "_conv_depthwise2d"}))
    return NodeCategory::Convolution;
  if (contains(op, "_norm") || contains(op, "batch_norm") || one_of(op, {"normalize", "renorm"}))
    return NodeCategory::Normalization;
  if (one_of(op, {"relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "gelu", "gelu_", "silu",
                  "silu_", "sigmoid", "sigmoid_", "tanh", "tanh_", "hardtanh", "hardtanh_",
                  "hardswish", "hardswish_", "hardsigmoid", "hardsigmoid_", "elu", "elu_", "selu",
                  "celu", "mish", "softplus", "softmax", "_softmax", "log_softmax", "_log_softmax",
                  "_safe_softmax", "prelu", "_prelu_kernel", "glu", "threshold", "log_sigmoid",
                  "log_sigmoid_forward", "softsign", "tanhshrink", "hardshrink", "softshrink",
                  "rrelu", "logit"}))
    return NodeCategory::Activation;
  if (contains(op, "pool") || contains(op, "upsample") ||
      one_of(op, {"grid_sampler_2d", "pixel_shuffle", "pixel_unshuffle"}))
    return NodeCategory::Pooling;
  if (one_of(op, {"view", "reshape", "_unsafe_view", "_reshape_alias", "permute", "transpose", "t",
                  "expand", "expand_as", "squeeze", "unsqueeze", "flatten", "unflatten", "cat",
                  "concat", "stack", "split", "split_with_sizes", "chunk", "slice", "select",
                  "narrow", "contiguous", "clone", "alias", "as_strided", "sym_size", "sym_numel",
                  "sym_stride", "sym_storage_offset", "unbind", "repeat", "tile", "roll", "flip",
                  "movedim", "view_as", "unfold", "detach", "_to_copy", "to", "type_as", "lift_fresh_copy",
                  "constant_pad_nd", "pad", "hstack", "vstack", "swapaxes", "squeeze_copy",
                  "unsqueeze_copy", "view_copy", "permute_copy", "expand_copy", "slice_copy",
                  "select_copy", "transpose_copy", "alias_copy", "split_copy", "diagonal", "unbind_copy",
                  "t_copy", "index_select", "gather", "index", "repeat_interleave"}) ||
      contains(op, "_pad"))
    return NodeCategory::ShapeView;
  return NodeCategory::Other;
}

NodeCategory call_category(const ir::Node& node) {
  const ir::Target& t = node.target;
  if (t.is_higher_order()) return NodeCategory::ControlFlow;
  if (t.is_getitem()) return NodeCategory::Other;
  if (t.is_torch_op()) {
    std::string ns = t.op_namespace();
    if (ns != "aten" && ns != "prims") return NodeCategory::Custom;
    return op_category(t.op_name());
  }
  // Python-level helpers on symbolic ints (operator.mul, torch.sym_float).
  return NodeCategory::ShapeView;
}

}  // namespace

NodeCategory categorize(const ir::Node& node, const ir::GraphSignature& signature) {
  switch (node.op) {
    case ir::OpKind::Placeholder: return input_category(node, signature);
    case ir::OpKind::Output: return NodeCategory::Output;
    case ir::OpKind::GetAttr: return NodeCategory::ControlFlow;  // subgraphs of cond/map
    case ir::OpKind::CallFunction: return call_category(node);
  }
  return NodeCategory::Other;
}

QString category_name(NodeCategory category) {
  static const std::array<const char*, kNodeCategoryCount> names = {
      "user input", "parameter",  "buffer",       "constant",  "linear algebra",
      "convolution", "normalization", "activation", "pooling / resampling", "shape / view",
      "reduction",  "control flow", "custom op",  "element-wise / other", "output"};
  return QString::fromLatin1(names[static_cast<int>(category)]);
}

}  // namespace exportlens::ui

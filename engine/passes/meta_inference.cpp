#include "engine/passes/meta_inference.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

#include "engine/ir/argument_lookup.h"
#include "engine/ops/shape_rule.h"

namespace exportlens::passes {

namespace {

using ops::SymValue;

SymValue to_sym_value(const ir::ValueInfo& v) {
  if (const auto* t = v.tensor()) {
    ops::SymTensor s;
    for (const auto& d : t->sizes) s.sizes.push_back(d.expr);
    s.dtype = t->dtype;
    s.device = t->device;
    return SymValue::of(std::move(s));
  }
  if (const auto* i = v.sym_int()) return SymValue::of_int(i->expr);
  if (const auto* b = v.sym_bool()) return SymValue::of_bool(b->expr);
  if (const auto* tuple = v.tuple()) {
    std::vector<SymValue> items;
    for (const auto& item : *tuple) items.push_back(to_sym_value(item));
    return SymValue::list(std::move(items));
  }
  return SymValue::none();
}

ir::ValueInfo to_value_info(const SymValue& v, const Hints& h) {
  switch (v.kind) {
    case SymValue::Kind::Tensor: {
      ir::TensorMeta m;
      m.dtype = v.tensor.dtype;
      m.device = v.tensor.device;
      for (const auto& e : v.tensor.sizes) m.sizes.push_back(h.sym(e));
      m.strides = contiguous_strides(m.sizes);
      return ir::ValueInfo::of(std::move(m));
    }
    case SymValue::Kind::Int: return ir::ValueInfo::of(h.sym(v.scalar));
    case SymValue::Kind::Bool: return ir::ValueInfo{ir::SymBool{v.scalar, std::nullopt}};
    case SymValue::Kind::Float: return ir::ValueInfo{ir::SymFloat{std::to_string(v.number), v.number}};
    case SymValue::Kind::List: {
      ir::ValueTuple items;
      for (const auto& item : v.items) items.push_back(to_value_info(item, h));
      return ir::ValueInfo::of_tuple(std::move(items));
    }
    case SymValue::Kind::None: break;
  }
  return {};
}

const ir::TensorMeta* input_meta(const ir::Node& n, size_t index = 0) {
  if (index >= n.args().size()) return nullptr;
  const ir::Node* in = n.args()[index].node();
  return in ? in->value.tensor() : nullptr;
}

std::optional<int64_t> int_arg(const ir::Node& n, size_t index, std::string_view name = {}) {
  const ir::Argument* a = ir::find_argument(n.args(), n.kwargs(), index, name);
  if (!a) return std::nullopt;
  if (auto* i = std::get_if<int64_t>(&a->v)) return *i;
  if (const ir::Node* s = a->node())
    if (const auto* si = s->value.sym_int()) return si->hint;
  return std::nullopt;
}

std::vector<int64_t> int_list_arg(const ir::Node& n, size_t index) {
  std::vector<int64_t> out;
  if (index >= n.args().size()) return out;
  if (auto* i = std::get_if<int64_t>(&n.args()[index].v)) return {*i};
  if (const auto* l = n.args()[index].list())
    for (const auto& item : l->items)
      if (auto* i = std::get_if<int64_t>(&item.v)) out.push_back(*i);
  return out;
}

int64_t wrap(int64_t d, size_t rank) { return d < 0 ? d + int64_t(std::max<size_t>(rank, 1)) : d; }

std::optional<ir::MemoryFormat> memory_format_kwarg(const ir::Node& n) {
  if (const ir::Argument* a = ir::find_keyword(n.kwargs(), "memory_format"))
    if (auto* m = std::get_if<ir::MemoryFormat>(&a->v)) return *m;
  return std::nullopt;
}

const std::set<std::string, std::less<>>& contiguous_output_ops() {
  static const std::set<std::string, std::less<>> ops = {
      "mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "convolution", "_convolution", "conv1d", "conv2d",
      "conv3d", "_softmax", "_log_softmax", "softmax", "log_softmax", "_safe_softmax", "sum", "mean", "amax",
      "amin", "any", "all", "prod", "var", "std", "max", "min", "argmax", "argmin", "cat", "stack", "embedding",
      "full", "arange", "scalar_tensor", "zeros", "ones", "empty", "rand", "randn", "index_select",
      "constant_pad_nd", "pad", "native_layer_norm", "layer_norm", "native_group_norm", "group_norm",
      "max_pool2d_with_indices", "max_pool2d", "avg_pool2d", "_adaptive_avg_pool2d", "adaptive_avg_pool2d",
      "cumsum", "sort", "topk", "gather", "repeat", "index", "nonzero", "mv", "dot", "outer"};
  return ops;
}

const std::set<std::string, std::less<>>& preserve_format_ops() {
  static const std::set<std::string, std::less<>> ops = {
      "clone", "_to_copy", "full_like", "zeros_like", "ones_like", "empty_like", "rand_like", "randn_like",
      "copy", "lift_fresh_copy", "_native_batch_norm_legit_functional", "_native_batch_norm_legit_no_training",
      "_native_batch_norm_legit", "native_batch_norm"};
  return ops;
}

/// Strides of a view op's result from its input's layout; nullopt if not a view op.
std::optional<Dims> view_op_strides(const std::string& op, const ir::Node& n, const ir::TensorMeta& out,
                                    const Hints& h) {
  const ir::TensorMeta* in = input_meta(n);
  if (!in || in->strides.size() != in->sizes.size()) return std::nullopt;
  const size_t rank = in->rank();
  if (op == "permute") {
    const auto dims = int_list_arg(n, 1);
    if (dims.size() != rank) return std::nullopt;
    Dims s;
    for (int64_t d : dims) s.push_back(in->strides[wrap(d, rank)]);
    return s;
  }
  if (op == "as_strided") {  // the strides as given (static ones; symbolic ones are left to the default)
    const auto strides = int_list_arg(n, 2);
    if (strides.size() != out.rank()) return std::nullopt;
    Dims s;
    for (int64_t v : strides) s.push_back(ir::SymInt(v));
    return s;
  }
  if (op == "transpose" || op == "t") {
    Dims s = in->strides;
    if (rank < 2) return s;
    const int64_t a = op == "t" ? 0 : wrap(int_arg(n, 1).value_or(0), rank);
    const int64_t b = op == "t" ? 1 : wrap(int_arg(n, 2).value_or(1), rank);
    std::swap(s[a], s[b]);
    return s;
  }
  if (op == "expand" || op == "expand_as" || op == "broadcast_to") {
    Dims s(out.rank(), ir::SymInt(int64_t{0}));
    const size_t lead = out.rank() - std::min(out.rank(), rank);
    for (size_t i = lead; i < out.rank(); ++i) {
      const size_t j = i - lead;
      const bool broadcast = h.eq(in->sizes[j], ir::SymInt(int64_t{1})) && !h.eq(out.sizes[i], ir::SymInt(int64_t{1}));
      s[i] = broadcast ? ir::SymInt(int64_t{0}) : in->strides[j];
    }
    return s;
  }
  if (op == "unsqueeze") {
    const int64_t d = wrap(int_arg(n, 1).value_or(0), rank + 1);
    Dims s = in->strides;
    const ir::SymInt stride = size_t(d) < rank ? sym_mul(in->sizes[d], in->strides[d]) : ir::SymInt(int64_t{1});
    s.insert(s.begin() + d, stride);
    return s;
  }
  if (op == "squeeze") {
    std::vector<int64_t> dims = int_list_arg(n, 1);
    if (dims.empty() && n.args().size() < 2)
      for (size_t i = 0; i < rank; ++i) dims.push_back(int64_t(i));
    Dims s;
    for (size_t i = 0; i < rank; ++i) {
      const bool listed = std::any_of(dims.begin(), dims.end(), [&](int64_t d) { return wrap(d, rank) == int64_t(i); });
      if (listed && h.eq(in->sizes[i], ir::SymInt(int64_t{1}))) continue;
      s.push_back(in->strides[i]);
    }
    return s;
  }
  if (op == "select") {
    Dims s = in->strides;
    s.erase(s.begin() + wrap(int_arg(n, 1).value_or(0), rank));
    return s;
  }
  if (op == "slice") {
    Dims s = in->strides;
    const int64_t d = wrap(int_arg(n, 1, "dim").value_or(0), rank);
    const int64_t step = int_arg(n, 4, "step").value_or(1);
    s[d] = sym_mul(s[d], ir::SymInt(step));
    return s;
  }
  if (op == "view" || op == "_unsafe_view" || op == "reshape" || op == "view_as" || op == "_reshape_alias") {
    if (auto s = view_strides(in->sizes, in->strides, out.sizes, h)) return s;
    return contiguous_strides(out.sizes);
  }
  if (op == "alias" || op == "detach" || op == "lift_fresh") return in->strides;
  return std::nullopt;
}

/// scaled_dot_product_attention's output strides (tensor_layout.h).
std::optional<Dims> attention_strides(const std::string& op, const ir::Node& n, const ir::TensorMeta& out,
                                      const Hints& h) {
  if (op != "scaled_dot_product_attention") return std::nullopt;
  const ir::TensorMeta *q = input_meta(n, 0), *k = input_meta(n, 1), *v = input_meta(n, 2);
  if (!q || !k || !v) return std::nullopt;
  double dropout_p = 0.0;
  if (const ir::Argument* a = ir::find_argument(n.args(), n.kwargs(), 4, "dropout_p")) {
    if (auto* d = std::get_if<double>(&a->v)) dropout_p = *d;
    else if (auto* i = std::get_if<int64_t>(&a->v)) dropout_p = double(*i);
  }
  const ir::Argument* mask = ir::find_argument(n.args(), n.kwargs(), 3, "attn_mask");
  const ir::TensorMeta* mask_meta = mask && mask->node() ? mask->node()->value.tensor() : nullptr;
  return attention_output_strides(*q, *k, *v, mask_meta, dropout_p, out.sizes, h);
}

/// Strides of element `index` of a multi-output view op (split, unbind).
std::optional<Dims> split_output_strides(const std::string& op, const ir::Node& n, const Hints&) {
  const ir::TensorMeta* in = input_meta(n);
  if (!in || in->strides.size() != in->sizes.size()) return std::nullopt;
  if (op == "split" || op == "split_with_sizes" || op == "chunk" || op == "unsafe_split") return in->strides;
  if (op == "unbind") {
    Dims s = in->strides;
    s.erase(s.begin() + wrap(int_arg(n, 1, "dim").value_or(0), in->rank()));
    return s;
  }
  return std::nullopt;
}

/// view.dtype(self, dtype): the elements reinterpreted, laid out as
/// at::native's view_dtype does it (the last dim, of stride 1, and every
/// other stride and the storage offset scaled by the ratio of the element
/// sizes). The shape rule (ops/rules_view.cpp) scales the sizes for the
/// solver; the lowering needs the file's strides and offset scaled with them.
ir::ValueInfo dtype_view_value(const ir::Node& n) {
  const ir::TensorMeta* in = input_meta(n);
  const auto* dtype = n.args().size() > 1 ? std::get_if<ir::ScalarType>(&n.args()[1].v) : nullptr;
  if (!in || !dtype || in->strides.size() != in->sizes.size())
    throw MetaInferenceError("view.dtype: needs a tensor with strides and a dtype");
  ir::TensorMeta m = *in;
  m.dtype = *dtype;
  const int from = ir::element_size(in->dtype), to = ir::element_size(*dtype);
  if (from == to) return ir::ValueInfo::of(std::move(m));
  if (m.sizes.empty() || m.strides.back() != ir::SymInt(1))
    throw MetaInferenceError("view.dtype to another element size needs a last dim of stride 1");
  auto scale = [&](const ir::SymInt& v) -> ir::SymInt {
    if (from > to) return sym_mul(v, ir::SymInt(int64_t{from / to}));
    const auto i = v.expr.as_integer();
    if (!i || *i % (to / from) != 0)
      throw MetaInferenceError("view.dtype to a larger element: a size or stride not a multiple of " +
                               std::to_string(to / from));
    return ir::SymInt(*i / (to / from));
  };
  m.sizes.back() = scale(m.sizes.back());
  for (size_t d = 0; d + 1 < m.strides.size(); ++d) m.strides[d] = scale(m.strides[d]);
  m.storage_offset = scale(m.storage_offset);
  return ir::ValueInfo::of(std::move(m));
}

}  // namespace

ir::ValueInfo MetaInference::infer(const ir::Node& node) {
  if (node.target.is_torch_op() && node.target.op_namespace() == "aten" && node.target.op_name() == "view" &&
      node.target.overload() == "dtype")
    return dtype_view_value(node);
  const ops::ShapeRule* rule = ops::find_shape_rule(node.target);
  if (!rule) throw MetaInferenceError("no symbolic shape rule for " + node.target.qualified());
  std::unordered_map<const ir::Node*, SymValue> inputs;
  node.for_each_input([&](const ir::Node* in) {
    if (in) inputs.emplace(in, to_sym_value(in->value));
  });
  const SymValue none;
  const ops::ValueOf value_of = [&](const ir::Node* n) -> const SymValue& {
    auto it = inputs.find(n);
    return it == inputs.end() ? none : it->second;
  };
  symbolic::ShapeEnv env;  // per node: a rule's guards must not rewrite the next node's sizes
  ops::RuleContext ctx(env, node, value_of, [](const ir::Node& n) { return "node " + n.name; });
  SymValue result;
  try {
    result = (*rule)(ctx);
  } catch (const std::exception& e) {
    throw MetaInferenceError("shape rule for " + node.target.qualified() + " failed: " + e.what());
  }
  return infer_strides(node, to_value_info(result, hints_));
}

ir::ValueInfo MetaInference::infer_strides(const ir::Node& node, ir::ValueInfo value) const {
  const std::string op = node.target.is_torch_op() ? node.target.op_name() : "";
  if (auto* t = std::get_if<ir::TensorMeta>(&value.v)) {
    if (op == "convolution" || op == "_convolution" || op == "conv2d") {
      if (const ir::TensorMeta* in = input_meta(node))
        t->strides = convolution_output_strides(*in, input_meta(node, 1), t->sizes, hints_);
      return value;
    }
    if (contiguous_output_ops().count(op)) return value;
    if (auto s = view_op_strides(op, node, *t, hints_)) {
      t->strides = std::move(*s);
      return value;
    }
    if (auto s = attention_strides(op, node, *t, hints_)) {
      t->strides = std::move(*s);
      return value;
    }
    const auto format = memory_format_kwarg(node);
    if (format == ir::MemoryFormat::ContiguousFormat) return value;
    if (preserve_format_ops().count(op)) {
      if (const ir::TensorMeta* in = input_meta(node); in && in->sizes == t->sizes)
        t->strides = preserve_format_strides(*in, hints_);
      return value;
    }
    std::vector<const ir::TensorMeta*> operands;
    node.for_each_input([&](const ir::Node* in) {
      if (in && in->value.tensor()) operands.push_back(in->value.tensor());
    });
    t->strides = elementwise_strides(t->sizes, operands, hints_);
    return value;
  }
  if (auto* tuple = std::get_if<std::shared_ptr<ir::ValueTuple>>(&value.v); tuple && *tuple) {
    auto items = **tuple;
    const auto split = split_output_strides(op, node, hints_);
    for (size_t i = 0; i < items.size(); ++i) {
      auto* t = std::get_if<ir::TensorMeta>(&items[i].v);
      if (!t) continue;
      if (split && split->size() == t->rank()) t->strides = *split;
      else if (i == 0 && preserve_format_ops().count(op))
        if (const ir::TensorMeta* in = input_meta(node); in && in->sizes == t->sizes)
          t->strides = preserve_format_strides(*in, hints_);
    }
    return ir::ValueInfo::of_tuple(std::move(items));
  }
  return value;
}

}  // namespace exportlens::passes

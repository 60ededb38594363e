#include "engine/ir/node.h"

#include "engine/ir/stack_trace.h"

namespace exportlens::ir {

std::string_view op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::Placeholder: return "placeholder";
    case OpKind::CallFunction: return "call_function";
    case OpKind::GetAttr: return "get_attr";
    case OpKind::Output: return "output";
  }
  return "?";
}

std::optional<SourceLocation> NodeMetadata::innermost_frame() const {
  return ir::innermost_frame(stack_trace);
}

namespace {
constexpr std::string_view kOpsPrefix = "torch.ops.";
constexpr std::string_view kHigherOrder = "torch.ops.higher_order.";
}  // namespace

Target::Target(std::string qualified) : qualified_(std::move(qualified)) {
  const std::string& q = qualified_;
  getitem_ = q == "_operator.getitem" || q == "operator.getitem";
  in_ops_ = q.rfind(kOpsPrefix, 0) == 0;
  higher_order_ = q.rfind(kHigherOrder, 0) == 0;
  if (!in_ops_) return;
  const size_t ns = kOpsPrefix.size();
  const size_t a = q.find('.', ns);
  if (a == std::string::npos) return;
  const size_t b = q.find('.', a + 1);
  ns_len_ = static_cast<uint32_t>(a - ns);
  name_len_ = static_cast<uint32_t>((b == std::string::npos ? q.size() : b) - a - 1);
  has_overload_ = b != std::string::npos;
}

std::string Target::op_namespace() const { return ns_len_ ? qualified_.substr(kOpsPrefix.size(), ns_len_) : ""; }

std::string Target::op_name() const {
  if (ns_len_) return qualified_.substr(kOpsPrefix.size() + ns_len_ + 1, name_len_);
  auto dot = qualified_.rfind('.');
  return dot == std::string::npos ? qualified_ : qualified_.substr(dot + 1);
}

std::string Target::overload() const {
  if (!ns_len_) return "";
  return has_overload_ ? qualified_.substr(kOpsPrefix.size() + ns_len_ + 1 + name_len_ + 1) : "default";
}

std::string Target::schema_name() const {
  if (!is_torch_op() || !ns_len_) return "";
  const std::string ov = overload();
  return ov == "default" ? op_namespace() + "::" + op_name() : op_namespace() + "::" + op_name() + "." + ov;
}

std::string Target::short_name() const {
  if (!ns_len_) return op_name();
  if (is_higher_order()) return op_name();
  const std::string ov = overload();
  return ov == "default" ? op_name() : op_name() + "." + ov;
}

}  // namespace exportlens::ir

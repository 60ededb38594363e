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

// Splits "torch.ops.ns.name.overload" into its three parts.
bool split_op(const std::string& q, std::string* ns, std::string* name, std::string* overload) {
  if (q.rfind(kOpsPrefix, 0) != 0) return false;
  std::string rest = q.substr(kOpsPrefix.size());
  auto a = rest.find('.');
  if (a == std::string::npos) return false;
  auto b = rest.find('.', a + 1);
  *ns = rest.substr(0, a);
  if (b == std::string::npos) {
    *name = rest.substr(a + 1);
    *overload = "default";
  } else {
    *name = rest.substr(a + 1, b - a - 1);
    *overload = rest.substr(b + 1);
  }
  return true;
}
}  // namespace

bool Target::is_torch_op() const {
  return qualified_.rfind(kOpsPrefix, 0) == 0 && !is_higher_order();
}
bool Target::is_higher_order() const { return qualified_.rfind(kHigherOrder, 0) == 0; }
bool Target::is_getitem() const {
  return qualified_ == "_operator.getitem" || qualified_ == "operator.getitem";
}

std::string Target::op_namespace() const {
  std::string ns, name, ov;
  return split_op(qualified_, &ns, &name, &ov) ? ns : "";
}
std::string Target::op_name() const {
  std::string ns, name, ov;
  if (split_op(qualified_, &ns, &name, &ov)) return name;
  auto dot = qualified_.rfind('.');
  return dot == std::string::npos ? qualified_ : qualified_.substr(dot + 1);
}
std::string Target::overload() const {
  std::string ns, name, ov;
  return split_op(qualified_, &ns, &name, &ov) ? ov : "";
}
std::string Target::schema_name() const {
  std::string ns, name, ov;
  if (!is_torch_op() || !split_op(qualified_, &ns, &name, &ov)) return "";
  return ov == "default" ? ns + "::" + name : ns + "::" + name + "." + ov;
}
std::string Target::short_name() const {
  std::string ns, name, ov;
  if (!split_op(qualified_, &ns, &name, &ov)) return op_name();
  if (is_higher_order()) return name;
  return ov == "default" ? name : name + "." + ov;
}

}  // namespace exportlens::ir

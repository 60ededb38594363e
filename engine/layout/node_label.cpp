#include "engine/layout/node_label.h"

#include <algorithm>

namespace exportlens::layout {

std::string op_short_name(const ir::Node& node) {
  switch (node.op) {
    case ir::OpKind::Placeholder: return node.name;
    case ir::OpKind::Output: return "output";
    case ir::OpKind::GetAttr: return node.attr.empty() ? node.name : node.attr;
    case ir::OpKind::CallFunction: break;
  }
  const ir::Target& t = node.target;
  if (t.is_getitem()) return "getitem";
  if (t.is_torch_op() && t.op_namespace() != "aten") return t.op_namespace() + "::" + t.op_name();
  // A HOP that wraps an op (auto_functionalized_v2's first operand) names it: the call the user wrote.
  if (t.is_higher_order() && !node.args().empty())
    if (const auto* op = std::get_if<ir::OperatorRef>(&node.args()[0].v))
      return t.op_name() + " · " + ir::Target(op->qualified).op_name();
  return t.op_name();
}

std::string value_annotation(const ir::ValueInfo& value) {
  if (const auto* t = value.tensor()) return t->annotation();
  if (const auto* s = value.sym_int()) return "Sym(" + s->str() + ")";
  if (const auto* b = value.sym_bool()) return "Sym(" + b->str() + ")";
  if (const auto* f = std::get_if<ir::SymFloat>(&value.v)) return "Sym(" + f->expr + ")";
  if (const auto* items = value.tuple()) {
    std::string out = "(";
    for (size_t i = 0; i < items->size(); ++i) {
      if (i) out += ", ";
      std::string item = value_annotation((*items)[i]);
      out += item.empty() ? "?" : item;
    }
    return out + ")";
  }
  return "";
}

NodeLabel node_label(const ir::Node& node) {
  return {op_short_name(node), value_annotation(node.value)};
}

Size estimated_box_size(const NodeLabel& label) {
  const double text = std::max(label.title.size() * 6.5, label.subtitle.size() * 6.0);
  return {std::max(60.0, text + 20.0), label.subtitle.empty() ? 24.0 : 38.0};
}

}  // namespace exportlens::layout

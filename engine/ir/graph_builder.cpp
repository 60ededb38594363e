#include "engine/ir/graph_builder.h"

namespace exportlens::ir {

std::unique_ptr<Node> GraphBuilder::node(OpKind kind, std::string_view candidate) {
  auto n = std::make_unique<Node>();
  n->op = kind;
  n->name = name(candidate);
  return n;
}

std::unique_ptr<Node> GraphBuilder::call(const Target& target, std::string_view candidate, std::vector<Argument> args,
                                         std::vector<NamedArgument> kwargs) {
  auto n = node(OpKind::CallFunction, candidate);
  n->target = target;
  n->args = std::move(args);
  n->kwargs = std::move(kwargs);
  return n;
}

std::unique_ptr<Node> GraphBuilder::placeholder(const std::string& exact) {
  auto n = std::make_unique<Node>();
  n->op = OpKind::Placeholder;
  name(exact);  // reserved
  n->name = exact;
  return n;
}

std::unique_ptr<Node> GraphBuilder::get_attr(std::string_view candidate, std::string attr) {
  auto n = node(OpKind::GetAttr, candidate);
  n->attr = std::move(attr);
  return n;
}

std::unique_ptr<Node> GraphBuilder::output(Argument result) {
  auto n = node(OpKind::Output, "output");
  n->args = {std::move(result)};
  return n;
}

std::string call_name(const Target& target) {
  if (target.is_torch_op() || target.is_higher_order()) {
    // FX's _target_to_str: a magic name loses its underscores (__and__ -> and, then and_1).
    std::string name = target.op_name();
    if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0)
      name = name.substr(2, name.size() - 4);
    return name;
  }
  const std::string& q = target.qualified();
  const auto dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

}  // namespace exportlens::ir

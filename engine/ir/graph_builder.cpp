#include "engine/ir/graph_builder.h"

namespace exportlens::ir {

std::unique_ptr<Node> GraphBuilder::make(OpKind kind, std::string_view candidate) {
  auto n = std::make_unique<Node>();
  n->op = kind;
  n->name = name(candidate);
  return n;
}

std::unique_ptr<Node> GraphBuilder::make_as_written(OpKind kind, const std::string& as_written) {
  auto n = std::make_unique<Node>();
  n->op = kind;
  n->name = as_written;
  if (graph_->find(as_written)) {
    int64_t& suffix = next_suffix_[as_written];
    do n->name = as_written + "_" + std::to_string(++suffix);
    while (graph_->find(n->name));
  }
  return n;
}

Node* GraphBuilder::insert(std::unique_ptr<Node> node) { return graph_->insert_before(insert_before_, std::move(node)); }

std::unique_ptr<Node> GraphBuilder::make_call(const Target& target, std::string_view candidate,
                                              std::vector<Argument> args, std::vector<NamedArgument> kwargs) {
  auto n = make(OpKind::CallFunction, candidate);
  n->target = target;
  n->set_inputs(std::move(args), std::move(kwargs));
  return n;
}

std::unique_ptr<Node> GraphBuilder::make_exact(OpKind kind, const std::string& exact) {
  auto n = std::make_unique<Node>();
  n->op = kind;
  reserve(exact);
  n->name = exact;
  return n;
}

std::unique_ptr<Node> GraphBuilder::make_get_attr(std::string_view candidate, std::string attr) {
  auto n = make(OpKind::GetAttr, candidate);
  n->attr = std::move(attr);
  return n;
}

std::unique_ptr<Node> GraphBuilder::make_output(Argument result) {
  auto n = make(OpKind::Output, "output");
  n->set_args({std::move(result)});
  return n;
}

Node* GraphBuilder::call(const Target& target, std::string_view candidate, std::vector<Argument> args,
                         std::vector<NamedArgument> kwargs) {
  return insert(make_call(target, candidate, std::move(args), std::move(kwargs)));
}

Node* GraphBuilder::placeholder(const std::string& exact) { return insert(make_exact(OpKind::Placeholder, exact)); }

Node* GraphBuilder::get_attr(std::string_view candidate, std::string attr) {
  return insert(make_get_attr(candidate, std::move(attr)));
}

Node* GraphBuilder::output(Argument result) { return insert(make_output(std::move(result))); }

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

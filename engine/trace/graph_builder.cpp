#include "engine/trace/graph_builder.h"

#include <stdexcept>

namespace exportlens::trace {

std::string name_base(const ir::Target& target) {
  if (target.is_torch_op() || target.is_higher_order()) return target.op_name();
  const std::string& q = target.qualified();
  const auto dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

GraphBuilder::GraphBuilder(ir::GraphModule& root) { frames_.push_back({&root, {}, nullptr}); }

int GraphBuilder::frame_of(const ir::Node* n) const {
  auto it = frame_of_.find(n);
  return it == frame_of_.end() ? -1 : it->second;
}

void GraphBuilder::begin_subgraph(ir::GraphModule& sub) { frames_.push_back({&sub, {}, nullptr}); }

void GraphBuilder::end_subgraph() {
  if (frames_.size() <= 1) throw std::logic_error("end_subgraph without begin_subgraph");
  frames_.pop_back();
}

std::unique_ptr<ir::Node> GraphBuilder::make(ir::OpKind kind, const std::string& base) {
  auto n = std::make_unique<ir::Node>();
  n->op = kind;
  n->name = frames_.back().names.create_name(base, nullptr);
  return n;
}

ir::Node* GraphBuilder::placeholder(const std::string& name, ops::SymValue value, bool is_state) {
  Frame& f = frames_.back();
  auto n = std::make_unique<ir::Node>();
  n->op = ir::OpKind::Placeholder;
  n->name = name;  // exactly the input's name ("input" too; the printer renames its uses)
  f.names.create_name(name, nullptr);
  ir::Node* p = is_state && f.first_user_input ? f.gm->graph.insert_before(f.first_user_input, std::move(n))
                                               : f.gm->graph.append(std::move(n));
  if (!is_state && !f.first_user_input) f.first_user_input = p;
  frame_of_[p] = int(frames_.size()) - 1;
  values_[p] = std::move(value);
  return p;
}

ir::Node* GraphBuilder::state_placeholder(const std::string& name, ops::SymValue value) {
  Frame& f = frames_.front();
  auto n = std::make_unique<ir::Node>();
  n->op = ir::OpKind::Placeholder;
  n->name = name;
  f.names.create_name(name, nullptr);
  ir::Node* p = f.first_user_input ? f.gm->graph.insert_before(f.first_user_input, std::move(n))
                                   : f.gm->graph.append(std::move(n));
  frame_of_[p] = 0;
  values_[p] = std::move(value);
  return p;
}

ir::Node* GraphBuilder::call(const ir::Target& target, const std::string& base, std::vector<ir::Argument> args,
                             std::vector<ir::NamedArgument> kwargs) {
  auto n = make(ir::OpKind::CallFunction, base);
  n->target = target;
  n->args = std::move(args);
  n->kwargs = std::move(kwargs);
  ir::Node* p = graph().append(std::move(n));
  frame_of_[p] = int(frames_.size()) - 1;
  return p;
}

ir::Node* GraphBuilder::call_after(ir::Node* anchor, const ir::Target& target, const std::string& base,
                                   std::vector<ir::Argument> args) {
  auto n = make(ir::OpKind::CallFunction, base);
  n->target = target;
  n->args = std::move(args);
  n->meta = anchor->meta;  // torch's inserted asserts share the defining node's source line
  ir::Graph& g = graph();
  const auto nodes = g.nodes();
  ir::Node* next = nullptr;
  for (size_t i = 0; i + 1 < nodes.size(); ++i)
    if (nodes[i] == anchor) next = nodes[i + 1];
  ir::Node* p = g.insert_before(next, std::move(n));
  frame_of_[p] = int(frames_.size()) - 1;
  return p;
}

ir::Node* GraphBuilder::get_attr(const std::string& attr) {
  auto n = std::make_unique<ir::Node>();
  n->op = ir::OpKind::GetAttr;
  n->name = frames_.back().names.create_name(attr, nullptr);
  n->attr = attr;
  ir::Node* p = graph().append(std::move(n));
  frame_of_[p] = int(frames_.size()) - 1;
  return p;
}

ir::Node* GraphBuilder::output(ir::Argument result) {
  auto n = std::make_unique<ir::Node>();
  n->op = ir::OpKind::Output;
  n->name = "output";
  n->args = {std::move(result)};
  ir::Node* p = graph().append(std::move(n));
  frame_of_[p] = int(frames_.size()) - 1;
  return p;
}

const ops::SymValue& GraphBuilder::value(const ir::Node* n) const {
  static const ops::SymValue none;
  auto it = values_.find(n);
  return it == values_.end() ? none : it->second;
}

}  // namespace exportlens::trace

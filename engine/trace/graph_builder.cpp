#include "engine/trace/graph_builder.h"

#include <stdexcept>

namespace exportlens::trace {

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

ir::Node* GraphBuilder::append(std::unique_ptr<ir::Node> n) {
  ir::Node* p = graph().append(std::move(n));
  frame_of_[p] = int(frames_.size()) - 1;
  return p;
}

ir::Node* GraphBuilder::placeholder_in(Frame& f, const std::string& name, ops::SymValue value, bool is_state) {
  auto n = f.nodes.placeholder(name);  // exactly the input's name ("input" too; the printer renames its uses)
  ir::Node* p = is_state && f.first_user_input ? f.gm->graph.insert_before(f.first_user_input, std::move(n))
                                               : f.gm->graph.append(std::move(n));
  if (!is_state && !f.first_user_input) f.first_user_input = p;
  frame_of_[p] = int(&f - frames_.data());
  values_[p] = std::move(value);
  return p;
}

ir::Node* GraphBuilder::placeholder(const std::string& name, ops::SymValue value, bool is_state) {
  return placeholder_in(frames_.back(), name, std::move(value), is_state);
}

ir::Node* GraphBuilder::state_placeholder(const std::string& name, ops::SymValue value) {
  return placeholder_in(frames_.front(), name, std::move(value), true);
}

ir::Node* GraphBuilder::call(const ir::Target& target, const std::string& base, std::vector<ir::Argument> args,
                             std::vector<ir::NamedArgument> kwargs) {
  return append(frames_.back().nodes.call(target, base, std::move(args), std::move(kwargs)));
}

ir::Node* GraphBuilder::call_after(ir::Node* anchor, const ir::Target& target, const std::string& base,
                                   std::vector<ir::Argument> args) {
  auto n = frames_.back().nodes.call(target, base, std::move(args));
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

ir::Node* GraphBuilder::get_attr(const std::string& attr) { return append(frames_.back().nodes.get_attr(attr, attr)); }

ir::Node* GraphBuilder::output(ir::Argument result) { return append(frames_.back().nodes.output(std::move(result))); }

const ops::SymValue& GraphBuilder::value(const ir::Node* n) const {
  static const ops::SymValue none;
  auto it = values_.find(n);
  return it == values_.end() ? none : it->second;
}

}  // namespace exportlens::trace

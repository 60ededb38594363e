#include "engine/trace/graph_recorder.h"

#include <stdexcept>

namespace exportlens::trace {

GraphRecorder::GraphRecorder(ir::GraphModule& root) { frames_.push_back({&root, ir::GraphBuilder(root.graph), nullptr}); }

int GraphRecorder::frame_of(const ir::Node* n) const {
  auto it = frame_of_.find(n);
  return it == frame_of_.end() ? -1 : it->second;
}

void GraphRecorder::begin_subgraph(ir::GraphModule& sub) { frames_.push_back({&sub, ir::GraphBuilder(sub.graph), nullptr}); }

void GraphRecorder::end_subgraph() {
  if (frames_.size() <= 1) throw std::logic_error("end_subgraph without begin_subgraph");
  frames_.pop_back();
}

ir::Node* GraphRecorder::recorded(ir::Node* n, const Frame& f) {
  frame_of_[n] = int(&f - frames_.data());
  return n;
}

ir::Node* GraphRecorder::placeholder_in(Frame& f, const std::string& name, ops::SymValue value, bool is_state) {
  ir::GraphBuilder::InsertionGuard guard(f.nodes);
  // State goes before the first user input, as torch orders them.
  f.nodes.set_insertion_point(is_state ? f.first_user_input : nullptr);
  ir::Node* p = recorded(f.nodes.placeholder(name), f);  // exactly the input's name ("input" too; the printer renames its uses)
  if (!is_state && !f.first_user_input) f.first_user_input = p;
  values_[p] = std::move(value);
  return p;
}

ir::Node* GraphRecorder::placeholder(const std::string& name, ops::SymValue value, bool is_state) {
  return placeholder_in(frames_.back(), name, std::move(value), is_state);
}

ir::Node* GraphRecorder::state_placeholder(const std::string& name, ops::SymValue value) {
  return placeholder_in(frames_.front(), name, std::move(value), true);
}

ir::Node* GraphRecorder::call(const ir::Target& target, const std::string& base, std::vector<ir::Argument> args,
                              std::vector<ir::NamedArgument> kwargs) {
  Frame& f = frames_.back();
  return recorded(f.nodes.call(target, base, std::move(args), std::move(kwargs)), f);
}

ir::Node* GraphRecorder::call_after(ir::Node* anchor, const ir::Target& target, const std::string& base,
                                    std::vector<ir::Argument> args) {
  Frame& f = frames_.back();
  ir::GraphBuilder::InsertionGuard guard(f.nodes);
  f.nodes.set_insertion_point_after(anchor);
  ir::Node* p = recorded(f.nodes.call(target, base, std::move(args)), f);
  p->meta = anchor->meta;  // torch's inserted asserts share the defining node's source line
  return p;
}

ir::Node* GraphRecorder::get_attr(const std::string& attr) {
  Frame& f = frames_.back();
  return recorded(f.nodes.get_attr(attr, attr), f);
}

ir::Node* GraphRecorder::output(ir::Argument result) {
  Frame& f = frames_.back();
  return recorded(f.nodes.output(std::move(result)), f);
}

const ops::SymValue& GraphRecorder::value(const ir::Node* n) const {
  static const ops::SymValue none;
  auto it = values_.find(n);
  return it == values_.end() ? none : it->second;
}

}  // namespace exportlens::trace

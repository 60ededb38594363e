#pragma once
// Recording a trace into FX-style graphs: nodes made, named and placed by the
// one ir::GraphBuilder (one per graph), placeholders in torch.export's order
// (parameters, buffers, constants, then user inputs), the symbolic value of
// every node, and nested graphs for cond/map branches.
// No LibTorch: the tracer feeds it plain IR.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/graph_builder.h"
#include "engine/ops/sym_value.h"

namespace exportlens::trace {

class GraphRecorder {
 public:
  explicit GraphRecorder(ir::GraphModule& root);

  /// The graph being built now (a branch while a cond/map body is traced).
  ir::GraphModule& module() { return *frames_.back().gm; }
  ir::Graph& graph() { return frames_.back().gm->graph; }
  size_t depth() const { return frames_.size(); }
  /// Which frame (0 = the program's graph) owns `n`.
  int frame_of(const ir::Node* n) const;

  /// Starts tracing into `sub` (a fresh graph); end_subgraph() returns.
  void begin_subgraph(ir::GraphModule& sub);
  void end_subgraph();

  /// A placeholder named exactly `name`. State (parameters, buffers,
  /// constants) goes before the first user input, as torch orders them.
  ir::Node* placeholder(const std::string& name, ops::SymValue value, bool is_state);
  /// A state placeholder in the program's graph, whichever graph is current.
  ir::Node* state_placeholder(const std::string& name, ops::SymValue value);
  /// A call_function node named after `base` (FX style), appended.
  ir::Node* call(const ir::Target& target, const std::string& base, std::vector<ir::Argument> args,
                 std::vector<ir::NamedArgument> kwargs = {});
  /// Like call(), but placed right after `anchor` (runtime asserts).
  ir::Node* call_after(ir::Node* anchor, const ir::Target& target, const std::string& base,
                       std::vector<ir::Argument> args);
  ir::Node* get_attr(const std::string& attr);
  ir::Node* output(ir::Argument result);

  void set_value(const ir::Node* n, ops::SymValue v) { values_[n] = std::move(v); }
  const ops::SymValue& value(const ir::Node* n) const;

 private:
  struct Frame {
    ir::GraphModule* gm;
    ir::GraphBuilder nodes;  // makes, names and places this graph's nodes
    ir::Node* first_user_input = nullptr;
  };
  ir::Node* placeholder_in(Frame& f, const std::string& name, ops::SymValue value, bool is_state);
  ir::Node* recorded(ir::Node* n, const Frame& f);

  std::vector<Frame> frames_;
  std::unordered_map<const ir::Node*, int> frame_of_;
  std::unordered_map<const ir::Node*, ops::SymValue> values_;
};

}  // namespace exportlens::trace

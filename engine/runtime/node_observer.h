#pragma once
// The one hook into a run's node execution. Everything that watches or
// guards a run is a NodeObserver the interpreter calls around each node: the
// run's own check of values against the program's declarations and memory
// bound (declared_values.h), clocks (CUDA events, the host clock), kernel and
// memory recorders (run_probes.h) and the per-node comparison. An observer
// sees the top-level call_function nodes; one that sees_subgraphs() also sees
// the nodes of the subgraphs the run enters (cond branches, map bodies,
// autocast / grad-mode bodies) and every placeholder as it gets its value.
#include <vector>

#include "engine/ir/node.h"

namespace c10 {
struct IValue;
}

namespace exportlens::runtime {

class NodeObserver {
 public:
  virtual ~NodeObserver() = default;
  /// Before `node` runs; may throw (RunError) to stop the run there.
  virtual void node_begin(const ir::Node& node) = 0;
  /// After it ran: `value` is the node's result, alive until the interpreter
  /// frees it; may throw to stop the run. Observers end in the reverse order
  /// they began (the first one wraps the others, as nested scopes).
  virtual void node_end(const ir::Node& node, const c10::IValue& value) = 0;
  /// A placeholder got its value (a user input, a weight, a subgraph operand).
  virtual void input_bound(const ir::Node& node, const c10::IValue& value) {}
  /// Whether this observer also sees the nodes of subgraphs.
  virtual bool sees_subgraphs() const { return false; }
  /// Observers that say yes see, after each top-level node and the values it
  /// was the last reader of are freed, every value the graph still holds.
  virtual bool wants_live_values() const { return false; }
  virtual void live_values(const ir::Node& node, const std::vector<c10::IValue>& values) {}
};

}  // namespace exportlens::runtime

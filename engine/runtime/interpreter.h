#pragma once
// Runs a program's graph through LibTorch's dispatcher: every ATen (or
// registered custom) op by name and overload, getitem, symbolic-int ops,
// runtime asserts, and the cond / map_impl higher-order ops over their
// subgraphs. LibTorch headers: include only from runtime sources and tests.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/runtime/precision.h"
#include "engine/runtime/run_report.h"

namespace exportlens::runtime {

/// Raised for anything that stops a run; what() names the node and op.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Sees every top-level call_function node of a run: clocks, kernel
/// recorders, memory probes and per-node comparisons are observers.
class NodeObserver {
 public:
  virtual ~NodeObserver() = default;
  virtual void node_begin(const ir::Node& node) = 0;
  /// `value` is the node's result, alive until the interpreter frees it.
  virtual void node_end(const ir::Node& node, const c10::IValue& value) = 0;
  /// Observers that say yes see, after each node and the values it was the
  /// last reader of are freed, every value the graph still holds.
  virtual bool wants_live_values() const { return false; }
  virtual void live_values(const ir::Node& node, const std::vector<c10::IValue>& values) {}
};

class Interpreter {
 public:
  /// Resolves every op and loads weights onto `device`. Throws RunError if an
  /// op is not registered in this process (naming it) or a weight is bad.
  /// With a precision other than as-exported, every floating weight is
  /// cast to it, and so is every floating user input of a run.
  Interpreter(const ir::ExportedProgram& ep, c10::Device device, Precision precision = Precision::AsExported);
  ~Interpreter();

  /// Runs with the user inputs (tensors, ints, ...) in signature order and
  /// returns all graph outputs; mutated buffers are updated for the next run.
  std::vector<c10::IValue> run_graph(const std::vector<c10::IValue>& user_inputs);
  /// Only the USER_OUTPUT values, as ep.module()(*inputs) returns them.
  std::vector<c10::IValue> run(const std::vector<c10::IValue>& user_inputs);

  /// The user inputs as a run places them: tensors on the device, cast to
  /// the precision (giving these to run() avoids copies inside the run).
  std::vector<c10::IValue> prepare_inputs(const std::vector<c10::IValue>& user_inputs) const;
  /// What the precision cast (parameters, buffers, inputs) and kept.
  CastReport cast_report(const std::vector<c10::IValue>& user_inputs) const;
  /// Sees the top-level nodes of later runs (nullptr: none); not owned.
  void set_observer(NodeObserver* observer) { observer_ = observer; }
  /// Called between nodes; return false to cancel (RunError "cancelled").
  void set_progress(std::function<bool(int done, int total)> cb) { progress_ = std::move(cb); }
  /// Ops the user allows although they do more than compute (op_safety.h);
  /// without them such a program is refused before any node runs.
  void set_allowed_ops(std::set<std::string> ops) { allowed_ops_ = std::move(ops); }

  const c10::Device& device() const { return device_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  const ir::ExportedProgram& ep_;
  c10::Device device_;
  Precision precision_;
  NodeObserver* observer_ = nullptr;
  std::function<bool(int, int)> progress_;
  std::set<std::string> allowed_ops_;
};

/// A summary of the ops a program uses that this process cannot run.
std::vector<std::string> missing_operators(const ir::ExportedProgram& ep);

}  // namespace exportlens::runtime

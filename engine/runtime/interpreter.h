#pragma once
// Runs a program's graph through LibTorch's dispatcher: every ATen (or
// registered custom) op by name and overload, getitem, symbolic-int ops,
// runtime asserts, and the control-flow higher-order ops over their
// subgraphs (cond, map_impl, while_loop, scan; the grad-mode and autocast
// wrappers). LibTorch headers: include only from runtime sources and tests.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>

#include <chrono>
#include <functional>
#include <optional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/error.h"
#include "engine/base/progress.h"
#include "engine/ir/exported_program.h"
#include "engine/runtime/node_observer.h"
#include "engine/runtime/precision.h"
#include "engine/runtime/run_report.h"
#include "engine/serde/read_limits.h"

namespace exportlens::runtime {

/// Raised for anything that stops a run; what() names the node and op.
class RunError : public Error {
 public:
  explicit RunError(const std::string& message) : Error(ErrorKind::Run, {}, message) {}
};

class Interpreter;

/// One run of a program a node at a time, as a debugger steps: what numerics
/// drives two of in lockstep, comparing their values as they are made. Values
/// live as in Interpreter::run (each freed after its last reader) unless held;
/// the run is bounded and checked as run() is (memory, declared values).
class RunStepper {
 public:
  RunStepper(RunStepper&&) noexcept;
  ~RunStepper();

  bool done() const;
  /// Binds the placeholders up to the next call and runs it; returns that
  /// node, or nullptr when the run reached its output (done).
  const ir::Node* step();
  /// Frees what the last stepped node was the last reader of (held values stay).
  void release();
  /// A node's value while it lives (null before it runs, after it is freed).
  const c10::IValue* value(const ir::Node& node) const;
  /// Keeps a value alive past its last reader (`on`), or lets it go.
  void hold(const ir::Node& node, bool on);
  /// Runs `node` of this program again with inputs `input` gives (another
  /// run's values, say); an input it has no value for is this run's own.
  c10::IValue evaluate(const ir::Node& node,
                       const std::function<std::optional<c10::IValue>(const ir::Node&)>& input) const;
  /// The USER_OUTPUT values, once done.
  std::vector<c10::IValue> user_outputs() const;
  /// The most the run held on the CPU at once, in bytes.
  uint64_t peak_bytes() const;

  struct State;

 private:
  friend class Interpreter;
  explicit RunStepper(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

class Interpreter {
 public:
  /// Resolves every op and loads weights onto `device`. Throws RunError if an
  /// op is not registered in this process (naming it) or a weight is bad.
  /// With a precision other than as-exported, every floating weight is
  /// cast to it, and so is every floating user input of a run.
  Interpreter(const ir::ExportedProgram& ep, c10::Device device, Precision precision = Precision::AsExported);
  /// Another interpreter of `same`'s program on its device, in `precision`
  /// (numerics' B beside A): the resolved ops are shared, and the weights
  /// copied from `same`'s where it holds them as the archive does (cast
  /// where `precision` casts), not read from the archive again.
  Interpreter(const Interpreter& same, Precision precision);
  ~Interpreter();

  /// Runs with the user inputs (tensors, ints, ...) in signature order and
  /// returns all graph outputs; mutated buffers are updated for the next run.
  std::vector<c10::IValue> run_graph(const std::vector<c10::IValue>& user_inputs);
  /// Only the USER_OUTPUT values, as ep.module()(*inputs) returns them.
  std::vector<c10::IValue> run(const std::vector<c10::IValue>& user_inputs);
  /// A run to step through (RunStepper); this interpreter must outlive it.
  RunStepper start(const std::vector<c10::IValue>& user_inputs);

  /// The user inputs as a run places them: tensors on the device, cast to
  /// the precision (giving these to run() avoids copies inside the run).
  std::vector<c10::IValue> prepare_inputs(const std::vector<c10::IValue>& user_inputs) const;
  /// What the precision cast (parameters, buffers, inputs) and kept.
  CastReport cast_report(const std::vector<c10::IValue>& user_inputs) const;
  /// Watch later runs' nodes (node_observer.h), in this order, after the
  /// run's own check of declared values; nullptrs are skipped; not owned.
  void set_observers(std::vector<NodeObserver*> observers) { observers_ = std::move(observers); }
  /// Between nodes, later runs report how far they are and stop (Cancelled)
  /// once the token is set.
  void set_progress(Progress progress) { progress_ = std::move(progress); }
  /// Ops the user allows although they do more than compute (op_safety.h);
  /// without them such a program is refused before any node runs.
  void set_allowed_ops(std::set<std::string> ops) { allowed_ops_ = std::move(ops); }
  /// Bytes a run may allocate on the CPU, and the most any node may declare
  /// (run_memory.h, declared_values.h); over it the run fails naming the node.
  void set_memory_limit(uint64_t bytes) { memory_limit_ = bytes; }

  const c10::Device& device() const { return device_; }

 private:
  friend class RunStepper;
  void check_runnable() const;
  /// The weights read from the archive onto the device, cast to the precision.
  void load_weights();
  /// The parameters and buffers the precision casts (by target), and casting them.
  std::set<std::string_view> weights_cast() const;
  void cast_weights();
  /// The placeholders' values: user inputs on the device in the run's precision, then the weights.
  std::vector<c10::IValue> placeholders(const std::vector<c10::IValue>& user_inputs) const;
  void update_buffers(const std::vector<c10::IValue>& graph_outputs);
  std::vector<c10::IValue> user_outputs(const std::vector<c10::IValue>& graph_outputs) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  const ir::ExportedProgram& ep_;
  c10::Device device_;
  Precision precision_;
  std::vector<NodeObserver*> observers_;
  Progress progress_;
  std::set<std::string> allowed_ops_;
  uint64_t memory_limit_ = serde::ReadLimits().max_run_bytes;
};

/// A summary of the ops a program uses that this process cannot run.
std::vector<std::string> missing_operators(const ir::ExportedProgram& ep);

}  // namespace exportlens::runtime

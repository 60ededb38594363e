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
#include "engine/serde/read_limits.h"

namespace exportlens::runtime {

/// Raised for anything that stops a run; what() names the node and op.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NodeTiming {
  std::string node;
  double milliseconds = 0;
};

class Interpreter {
 public:
  /// Resolves every op and loads weights onto `device`. Throws RunError if an
  /// op is not registered in this process (naming it) or a weight is bad.
  Interpreter(const ir::ExportedProgram& ep, c10::Device device);
  ~Interpreter();

  /// Runs with the user inputs (tensors, ints, ...) in signature order and
  /// returns all graph outputs; mutated buffers are updated for the next run.
  std::vector<c10::IValue> run_graph(const std::vector<c10::IValue>& user_inputs);
  /// Only the USER_OUTPUT values, as ep.module()(*inputs) returns them.
  std::vector<c10::IValue> run(const std::vector<c10::IValue>& user_inputs);

  /// Time each node (synchronizing the device after each) in later runs.
  void set_timing(bool on) { timing_ = on; }
  const std::vector<NodeTiming>& timings() const { return timings_; }
  /// Called between nodes; return false to cancel (RunError "cancelled").
  void set_progress(std::function<bool(int done, int total)> cb) { progress_ = std::move(cb); }
  /// Ops the user allows although they do more than compute (op_safety.h);
  /// without them such a program is refused before any node runs.
  void set_allowed_ops(std::set<std::string> ops) { allowed_ops_ = std::move(ops); }
  /// Bytes a run may allocate on the CPU, and the most any node may declare
  /// (run_memory.h, declared_values.h); over it the run fails naming the node.
  void set_memory_limit(uint64_t bytes) { memory_limit_ = bytes; }

  const c10::Device& device() const { return device_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  const ir::ExportedProgram& ep_;
  c10::Device device_;
  bool timing_ = false;
  std::vector<NodeTiming> timings_;
  std::function<bool(int, int)> progress_;
  std::set<std::string> allowed_ops_;
  uint64_t memory_limit_ = serde::ReadLimits().max_run_bytes;
};

/// A summary of the ops a program uses that this process cannot run.
std::vector<std::string> missing_operators(const ir::ExportedProgram& ep);

}  // namespace exportlens::runtime

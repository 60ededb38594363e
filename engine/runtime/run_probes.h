#pragma once
// What watches a run besides the interpreter: a clock per device (the host
// clock on the CPU; CUDA events on a GPU, since host timers lie on an
// asynchronous device), the device recorder (CUPTI kernel records and the
// caching allocator's memory per node), CUDA-graph capture and the device
// list. The CUDA implementations (cuda_backend.cpp) are compiled in the
// CUDA flavour only; cuda_unavailable.cpp stands in for them otherwise.
// Runtime-internal: LibTorch types.
#include <memory>
#include <string>
#include <vector>

#include "engine/runtime/interpreter.h"
#include "engine/runtime/run_report.h"

namespace exportlens::runtime {

/// One timed run: each top-level node's start (from the run's start) and
/// duration, in the order they ran, and the whole run.
struct RunSample {
  struct Node {
    const ir::Node* node = nullptr;
    double start_ms = 0, ms = 0;
  };
  std::vector<Node> nodes;
  double total_ms = 0;  // on the clock's device
  double host_ms = 0;   // host wall time, the device synchronized at the end
};

class RunClock : public NodeObserver {
 public:
  virtual void run_begin() = 0;
  /// Ends the run (synchronizing the device) and returns its sample.
  virtual RunSample run_end() = 0;
  /// "host clock", "CUDA events".
  virtual std::string source() const = 0;
  /// Whether node_begin / node_end time nodes (otherwise only the whole run).
  void set_per_node(bool on) { per_node_ = on; }

 protected:
  bool per_node_ = true;
};

std::unique_ptr<RunClock> make_host_clock();

/// Kernels (CUPTI) and device memory (caching allocator) per node, over one run.
class DeviceRecorder : public NodeObserver {
 public:
  virtual void run_begin() = 0;
  virtual void run_end() = 0;
  /// Adds what was recorded to the report's nodes (matched by name) and
  /// sets its kernels / memory notes and peak.
  virtual void fill(RunReport& report) = 0;
};

/// The CPU's counterpart: bytes of the tensors the graph's values hold after
/// each node (distinct storages; inputs and weights until their last use),
/// freed as the interpreter frees them. No kernels.
std::unique_ptr<DeviceRecorder> make_host_memory_recorder();

/// CUDA flavour only (otherwise these say why not).
bool cuda_built();
std::vector<DeviceInfo> cuda_devices(std::string* why);
std::unique_ptr<RunClock> make_cuda_clock(const c10::Device& device);
std::unique_ptr<DeviceRecorder> make_device_recorder(const c10::Device& device);
/// Captures one run of `interp` on `inputs` (already on the device) as a
/// CUDA graph and times `replays` replays against as many eager runs; a
/// program that cannot be captured says why (the node, and what it does).
/// `eager_outputs` (those of an eager run with the same inputs) are
/// compared with a replay's when `compare_outputs` (no buffer mutation).
CudaGraphReport capture_cuda_graph(Interpreter& interp, const std::vector<c10::IValue>& inputs, int replays,
                                   const std::vector<c10::IValue>& eager_outputs, bool compare_outputs);

/// Why a program cannot be captured as one CUDA graph before trying: a node
/// that synchronizes with the host or makes data-dependent shapes (empty: try).
std::string capture_blocker(const ir::ExportedProgram& ep);

}  // namespace exportlens::runtime

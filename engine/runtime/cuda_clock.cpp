// CUDA flavour: node times from CUDA events recorded on the current stream
// around each node. Launches return before kernels finish, so a host timer
// would measure launch cost; events measure what the GPU did between the
// markers. Nothing synchronizes until the run ends, so timing does not
// serialize host and device. Node intervals are disjoint on one stream:
// their sum never exceeds the run's time.
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <chrono>

#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw RunError(std::string("CUDA timing failed (") + what + "): " + cudaGetErrorString(err));
  }
}

// A timing event, destroyed with its owner.
class Event {
 public:
  Event() { check(cudaEventCreateWithFlags(&e_, cudaEventDefault), "cudaEventCreate"); }
  ~Event() {
    if (e_) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { check(cudaEventRecord(e_, s), "cudaEventRecord"); }
  void synchronize() { check(cudaEventSynchronize(e_), "cudaEventSynchronize"); }
  double ms_until(const Event& later) const {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e_, later.e_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

class CudaClock final : public RunClock {
 public:
  explicit CudaClock(const c10::Device& device) : device_(device.has_index() ? device.index() : 0) {}

  void run_begin() override {
    next_ = 0;
    nodes_.clear();
    host_start_ = std::chrono::steady_clock::now();
    start_.record(stream());
  }
  void node_begin(const ir::Node&) override {
    if (!per_node_) return;
    while (begins_.size() <= next_) {
      begins_.push_back(std::make_unique<Event>());
      ends_.push_back(std::make_unique<Event>());
    }
    begins_[next_]->record(stream());
  }
  void node_end(const ir::Node& node, const c10::IValue&) override {
    if (!per_node_) return;
    ends_[next_]->record(stream());
    nodes_.push_back(&node);
    ++next_;
  }
  RunSample run_end() override {
    stop_.record(stream());
    stop_.synchronize();
    RunSample s;
    s.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start_).count();
    s.total_ms = start_.ms_until(stop_);
    for (size_t i = 0; i < nodes_.size(); ++i)
      s.nodes.push_back({nodes_[i], start_.ms_until(*begins_[i]), begins_[i]->ms_until(*ends_[i])});
    return s;
  }
  std::string source() const override { return "CUDA events"; }

 private:
  cudaStream_t stream() const { return c10::cuda::getCurrentCUDAStream(device_).stream(); }

  c10::DeviceIndex device_;
  Event start_, stop_;
  std::vector<std::unique_ptr<Event>> begins_, ends_;
  std::vector<const ir::Node*> nodes_;
  size_t next_ = 0;
  std::chrono::steady_clock::time_point host_start_;
};

}  // namespace

std::unique_ptr<RunClock> make_cuda_clock(const c10::Device& device) { return std::make_unique<CudaClock>(device); }

}  // namespace exportlens::runtime

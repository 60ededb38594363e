// CUDA flavour: what each node did on the device, over one run kept apart
// from the timed ones: the kernels it launched (CUPTI activity records,
// tied to the node by an external correlation id pushed around it) and the
// memory the caching allocator holds for tensors after it, with the peak
// while it ran. CUPTI is loaded at run time (dlopen), so a machine without
// it still runs, with a one-line note instead of kernels.
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "engine/runtime/run_probes.h"

#ifndef EXPORTLENS_CUPTI_LIBRARY
#define EXPORTLENS_CUPTI_LIBRARY "libcupti.so"
#endif

namespace exportlens::runtime {
namespace {

// The kernel record layout of the CUPTI compiled against (the wheel's own,
// the one loaded at run time): CUDA 13's CUPTI writes version 10.
#if defined(CUPTI_API_VERSION) && CUPTI_API_VERSION >= 130000
using KernelActivity = CUpti_ActivityKernel10;
#else
using KernelActivity = CUpti_ActivityKernel9;
#endif

// The CUPTI entry points used, resolved once.
struct Cupti {
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) push = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) pop = nullptr;
  decltype(&cuptiActivityFlushAll) flush = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiGetTimestamp) timestamp = nullptr;
  std::string error;  // why CUPTI cannot be used

  std::string say(CUptiResult r) const {
    const char* text = nullptr;
    if (result_string) result_string(r, &text);
    return text ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
  }
};

template <class F>
bool resolve(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  return out != nullptr;
}

// What the buffer callbacks collect (CUPTI calls them on its own thread).
struct Collected {
  std::mutex mutex;
  std::vector<KernelRecord> kernels;
  std::vector<uint32_t> kernel_correlation;   // parallel to kernels
  std::vector<uint64_t> kernel_start_ns;      // parallel to kernels
  std::map<uint32_t, uint64_t> external;      // correlation id -> node sequence number (1-based)
};
Collected& collected() {
  static Collected c;
  return c;
}

std::string demangle(const char* name) {
  if (!name) return "?";
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = status == 0 && out ? out : name;
  std::free(out);
  return s;
}

constexpr size_t kBufferBytes = 8 << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

const Cupti& cupti();

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  auto& c = collected();
  const Cupti& api = cupti();
  CUpti_Activity* record = nullptr;
  std::lock_guard lock(c.mutex);
  while (api.next_record && api.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const KernelActivity*>(record);
      KernelRecord r;
      r.name = demangle(k->name);
      r.ms = double(k->end - k->start) / 1e6;
      r.grid = {k->gridX, k->gridY, k->gridZ};
      r.block = {k->blockX, k->blockY, k->blockZ};
      c.kernels.push_back(std::move(r));
      c.kernel_correlation.push_back(k->correlationId);
      c.kernel_start_ns.push_back(k->start);
    } else if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
      const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) c.external[e->correlationId] = e->externalId;
    }
  }
  std::free(buffer);
}

const Cupti& cupti() {
  static const Cupti api = [] {
    Cupti a;
    void* lib = nullptr;
    std::string tried;
    for (const char* name : {EXPORTLENS_CUPTI_LIBRARY, "libcupti.so.13", "libcupti.so"}) {
      lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
      if (lib) break;
      tried += std::string(tried.empty() ? "" : ", ") + name;
    }
    if (!lib) {
      a.error = "CUPTI could not be loaded (tried " + tried + ")";
      return a;
    }
    const bool ok = resolve(lib, "cuptiActivityRegisterCallbacks", a.register_callbacks) &&
                    resolve(lib, "cuptiActivityEnable", a.enable) && resolve(lib, "cuptiActivityDisable", a.disable) &&
                    resolve(lib, "cuptiActivityPushExternalCorrelationId", a.push) &&
                    resolve(lib, "cuptiActivityPopExternalCorrelationId", a.pop) &&
                    resolve(lib, "cuptiActivityFlushAll", a.flush) &&
                    resolve(lib, "cuptiActivityGetNextRecord", a.next_record) &&
                    resolve(lib, "cuptiGetResultString", a.result_string) &&
                    resolve(lib, "cuptiGetTimestamp", a.timestamp);
    if (!ok) {
      a.error = "the CUPTI library found lacks the activity API";
      return a;
    }
    if (const auto r = a.register_callbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS)
      a.error = "CUPTI refused its activity buffers: " + a.say(r);
    return a;
  }();
  return api;
}

class CudaRecorder final : public DeviceRecorder {
 public:
  explicit CudaRecorder(const c10::Device& device) : device_(device.has_index() ? device.index() : 0) {}

  void run_begin() override {
    const Cupti& api = cupti();
    kernels_note_ = api.error;
    if (kernels_note_.empty()) {
      {
        auto& c = collected();
        std::lock_guard lock(c.mutex);
        c.kernels.clear();
        c.kernel_correlation.clear();
        c.kernel_start_ns.clear();
        c.external.clear();
      }
      for (auto kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION})
        if (const auto r = api.enable(kind); r != CUPTI_SUCCESS && kernels_note_.empty())
          kernels_note_ = "CUPTI could not record kernels: " + api.say(r);
      enabled_ = kernels_note_.empty();
      if (enabled_) api.timestamp(&start_ns_);
    }
    c10::cuda::CUDACachingAllocator::resetPeakStats(device_);
    nodes_.clear();
  }
  void node_begin(const ir::Node&) override {
    if (enabled_) cupti().push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, nodes_.size() + 1);
    c10::cuda::CUDACachingAllocator::resetPeakStats(device_);
  }
  void node_end(const ir::Node& node, const c10::IValue&) override {
    if (enabled_) {
      uint64_t last = 0;
      cupti().pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    }
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device_);
    const auto& bytes = stats.allocated_bytes[0];  // StatType::AGGREGATE: all pools
    nodes_.push_back({node.name, bytes.current, bytes.peak});
    run_peak_ = std::max(run_peak_, bytes.peak);
  }
  void run_end() override {
    (void)cudaDeviceSynchronize();
    if (!enabled_) return;
    const Cupti& api = cupti();
    api.flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (auto kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) api.disable(kind);
    enabled_ = false;
  }
  void fill(RunReport& report) override {
    std::map<std::string, NodeTime*> by_name;
    for (auto& t : report.node_times) by_name[t.node] = &t;
    for (const auto& n : nodes_) {
      auto it = by_name.find(n.name);
      if (it == by_name.end()) continue;
      it->second->live_bytes = n.live;
      it->second->peak_bytes = n.peak;
    }
    report.peak_bytes = run_peak_;
    report.kernels_note = kernels_note_;
    if (!kernels_note_.empty()) return;
    auto& c = collected();
    std::lock_guard lock(c.mutex);
    // Kernels outside every node (the buffer updates after the graph) belong to no node.
    for (size_t i = 0; i < c.kernels.size(); ++i) {
      auto ext = c.external.find(c.kernel_correlation[i]);
      if (ext == c.external.end() || ext->second == 0 || ext->second > nodes_.size()) continue;
      auto it = by_name.find(nodes_[ext->second - 1].name);
      if (it == by_name.end()) continue;
      KernelRecord k = c.kernels[i];
      k.start_ms = c.kernel_start_ns[i] >= start_ns_ ? double(c.kernel_start_ns[i] - start_ns_) / 1e6 : 0;
      it->second->kernels.push_back(std::move(k));
    }
    if (c.kernels.empty()) report.kernels_note = "CUPTI recorded no kernels for this run";
  }

 private:
  struct NodeMemory {
    std::string name;
    int64_t live = 0, peak = 0;
  };
  c10::DeviceIndex device_;
  bool enabled_ = false;
  uint64_t start_ns_ = 0;
  std::string kernels_note_;
  std::vector<NodeMemory> nodes_;
  int64_t run_peak_ = 0;
};

}  // namespace

std::unique_ptr<DeviceRecorder> make_device_recorder(const c10::Device& device) {
  return std::make_unique<CudaRecorder>(device);
}

}  // namespace exportlens::runtime

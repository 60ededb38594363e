// The CPU run's memory timeline: after each node, the bytes of the distinct
// tensor storages the interpreter still holds for the graph's values. (The
// CPU allocator keeps no statistics; what the graph holds is what a run of
// it needs at that point, intermediate buffers inside an op aside.)
#include <map>
#include <set>

#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

void add_storages(const c10::IValue& v, std::set<const void*>& seen, int64_t& bytes) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    if (!t.defined() || !t.has_storage()) return;
    const auto* impl = t.storage().unsafeGetStorageImpl();
    if (seen.insert(impl).second) bytes += static_cast<int64_t>(t.storage().nbytes());
  } else if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements()) add_storages(e, seen, bytes);
  } else if (v.isList()) {
    for (const auto& e : v.toListRef()) add_storages(e, seen, bytes);
  }
}

class HostMemoryRecorder final : public DeviceRecorder {
 public:
  void run_begin() override { nodes_.clear(); }
  void run_end() override {}
  void node_begin(const ir::Node&) override {}
  void node_end(const ir::Node&, const c10::IValue&) override {}
  bool wants_live_values() const override { return true; }
  void live_values(const ir::Node& node, const std::vector<c10::IValue>& values) override {
    std::set<const void*> seen;
    int64_t bytes = 0;
    for (const auto& v : values) add_storages(v, seen, bytes);
    nodes_.emplace_back(node.name, bytes);
  }
  void fill(RunReport& report) override {
    std::map<std::string, int64_t> live(nodes_.begin(), nodes_.end());
    int64_t peak = 0;
    for (auto& t : report.node_times) {
      auto it = live.find(t.node);
      if (it == live.end()) continue;
      t.live_bytes = t.peak_bytes = it->second;
      peak = std::max(peak, it->second);
    }
    report.peak_bytes = peak;
    report.memory_note = "CPU: bytes the graph's values hold after each node (inputs and weights until their last use)";
    report.kernels_note = "kernels are recorded on CUDA devices only";
  }

 private:
  std::vector<std::pair<std::string, int64_t>> nodes_;
};

}  // namespace

std::unique_ptr<DeviceRecorder> make_host_memory_recorder() { return std::make_unique<HostMemoryRecorder>(); }

}  // namespace exportlens::runtime

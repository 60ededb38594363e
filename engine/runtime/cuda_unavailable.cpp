// The CPU flavour's stand-ins for cuda_*.cpp: this build has no CUDA, and
// every GPU feature says so in one line.
#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

constexpr char kNotBuilt[] = "this ExportLens is built against the CPU build of LibTorch, which has no CUDA support";

}  // namespace

bool cuda_built() { return false; }

std::vector<DeviceInfo> cuda_devices(std::string* why) {
  if (why) *why = kNotBuilt;
  return {};
}

std::unique_ptr<RunClock> make_cuda_clock(const c10::Device&) { throw RunError(kNotBuilt); }

std::unique_ptr<DeviceRecorder> make_device_recorder(const c10::Device&) { return nullptr; }

CudaGraphReport capture_cuda_graph(Interpreter&, const std::vector<c10::IValue>&, int, const std::vector<c10::IValue>&, bool) {
  CudaGraphReport r;
  r.why = kNotBuilt;
  return r;
}

}  // namespace exportlens::runtime

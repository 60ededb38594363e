// CUDA flavour: the GPUs the CUDA runtime sees. Without a driver or a GPU
// cudaGetDeviceCount fails (error 35, insufficient driver; 100, no device):
// that becomes the one-line reason.
#include <cuda_runtime_api.h>

#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {

bool cuda_built() { return true; }

std::vector<DeviceInfo> cuda_devices(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it for LibTorch
    if (why)
      *why = std::string("no usable NVIDIA GPU here (CUDA: ") + cudaGetErrorString(err) + ", error " +
             std::to_string(static_cast<int>(err)) + ")";
    return {};
  }
  if (count == 0) {
    if (why) *why = "no CUDA device here";
    return {};
  }
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    devices.push_back({i, p.name, static_cast<int64_t>(p.totalGlobalMem), p.major, p.minor});
  }
  if (devices.empty() && why) *why = "the CUDA runtime lists GPUs but none answers cudaGetDeviceProperties";
  return devices;
}

}  // namespace exportlens::runtime

#include "engine/runtime/libtorch_info.h"

#include <ATen/Context.h>
#include <torch/version.h>

#include <dlfcn.h>

namespace exportlens::runtime {

std::string libtorch_description() {
  std::string s = std::string("LibTorch ") + TORCH_VERSION + (at::hasCUDA() ? " (with CUDA)" : " (CPU only)");
  Dl_info info{};
  // Any function of libtorch_cpu names the file the dynamic loader picked.
  if (dladdr(reinterpret_cast<void*>(&at::hasCUDA), &info) && info.dli_fname) s += std::string(" from ") + info.dli_fname;
  return s;
}

}  // namespace exportlens::runtime

#include "engine/runtime/libtorch_info.h"

#include <ATen/Context.h>
#include <torch/version.h>

#include <dlfcn.h>

namespace exportlens::runtime {

std::string libtorch_description() {
  std::string s = std::string("LibTorch ") + TORCH_VERSION + (at::hasCUDA() ? " (with CUDA)" : " (CPU only)");
  Dl_info info{};
  // A function libtorch_cpu exports (not an inline one, which the executable
  // holds its own copy of) names the file the dynamic loader picked.
  if (dladdr(reinterpret_cast<void*>(&at::globalContext), &info) && info.dli_fname)
    s += std::string(" from ") + info.dli_fname;
  return s;
}

}  // namespace exportlens::runtime

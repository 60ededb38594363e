#include "engine/runtime/libtorch_info.h"

#include <ATen/Context.h>
#include <torch/version.h>

#include <dlfcn.h>

namespace exportlens::runtime {

std::string libtorch_description() {
  // at::hasCUDA() also needs a usable GPU; whether this LibTorch is the CUDA
  // build is whether its CUDA library is loaded.
  void* cuda_library = dlopen("libtorch_cuda.so", RTLD_LAZY | RTLD_NOLOAD);
  if (cuda_library) dlclose(cuda_library);
  const char* flavour = !cuda_library ? " (CPU only)" : at::hasCUDA() ? " (with CUDA)" : " (with CUDA; no usable GPU here)";
  std::string s = std::string("LibTorch ") + TORCH_VERSION + flavour;
  Dl_info info{};
  // A function libtorch_cpu exports (not an inline one, which the executable
  // holds its own copy of) names the file the dynamic loader picked.
  if (dladdr(reinterpret_cast<void*>(&at::globalContext), &info) && info.dli_fname)
    s += std::string(" from ") + info.dli_fname;
  return s;
}

}  // namespace exportlens::runtime

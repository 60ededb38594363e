#pragma once
// Which LibTorch this process runs on, for `exportlens --version` and the
// About box: its version, whether it has CUDA, and the library file loaded.
#include <string>

namespace exportlens::runtime {

/// "LibTorch 2.13.0 (CPU only) from /usr/lib/exportlens/libtorch_cpu.so"
std::string libtorch_description();

}  // namespace exportlens::runtime

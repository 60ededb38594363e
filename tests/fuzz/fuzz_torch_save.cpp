// torch.save archives (inputs files, pickled weights): the scan that runs
// before LibTorch's unpickler sees them.
#include <cstddef>
#include <memory>
#include <vector>

#include "engine/serde/torch_save_check.h"
#include "engine/serde/zip_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::vector<std::byte>>(reinterpret_cast<const std::byte*>(data),
                                                              reinterpret_cast<const std::byte*>(data) + size);
  exportlens::serde::ReadLimits limits;
  limits.max_total_bytes = 64 << 20;
  limits.max_entry_bytes = 64 << 20;
  try {
    exportlens::serde::check_torch_save(bytes, "fuzz", limits);
  } catch (const exportlens::serde::ArchiveError&) {
  }
  return 0;
}

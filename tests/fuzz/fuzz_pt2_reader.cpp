// A whole .pt2 archive: zip structure, program JSON, weights configs, weights, verifier.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "engine/serde/pt2_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // read_pt2 takes a path: one scratch file per process, rewritten each run.
  static const std::string path = "/dev/shm/exportlens_fuzz_" + std::to_string(getpid()) + ".pt2";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  exportlens::serde::ReadOptions options;
  options.limits.max_total_bytes = 64 << 20;  // the fuzzer's memory budget, not the product's
  options.limits.max_entry_bytes = 64 << 20;
  try {
    exportlens::serde::read_pt2(path, "", options);
  } catch (const exportlens::serde::Pt2Error&) {
  }
  return 0;
}

// The program JSON (models/<name>.json) into the IR, then the verifier.
#include <string>

#include "engine/ir/verifier.h"
#include "engine/serde/pt2_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto ep = exportlens::serde::parse_program_json(text, "fuzz");
    exportlens::ir::verify(ep);
  } catch (const exportlens::serde::Pt2Error&) {
  }
  return 0;
}

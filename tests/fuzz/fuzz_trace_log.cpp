// torch's structured trace logs (a TORCH_TRACE file a user opens, one from a
// bug report): the lenient reader, the facts it reads, an attempt explained
// from them, and the graph text a log carries read back (FX code).
#include <string_view>

#include "engine/base/error.h"
#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/fx_code_reader.h"
#include "engine/capture/trace_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  exportlens::serde::ReadLimits limits;
  limits.max_nodes = 10'000;
  try {
    const auto log = exportlens::capture::read_trace_log_text(text, "fuzz.log", limits);
    const auto diagnosis = exportlens::capture::diagnose(log, limits);
    if (diagnosis.graph_text) (void)exportlens::capture::read_fx_code(diagnosis.graph_text->code, limits);
  } catch (const exportlens::Error&) {
  }
  return 0;
}

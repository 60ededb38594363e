// The JSON form of a dynamic_shapes spec (check --spec-json, tools), read
// and written back: every malformed text must be a SpecError naming the place.
#include <string_view>

#include "engine/ops/spec_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto spec = exportlens::ops::spec_from_json(text);
    (void)exportlens::ops::spec_to_json(spec);
  } catch (const exportlens::symbolic::SpecError&) {
  }
  return 0;
}

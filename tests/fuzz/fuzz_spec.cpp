// dynamic_shapes spec text (check --spec, the GUI's spec editor), printed back.
#include <string_view>

#include "engine/symbolic/dynamic_shapes_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto spec = exportlens::symbolic::parse_dynamic_shapes(text);
    (void)exportlens::symbolic::print_dynamic_shapes(spec);
  } catch (const exportlens::symbolic::SpecError&) {
  }
  return 0;
}

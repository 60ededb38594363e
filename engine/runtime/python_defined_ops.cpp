#include "engine/runtime/python_defined_ops.h"

#include <mutex>

namespace exportlens::runtime {

void ensure_python_defined_ops() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_quantized_decomposed_ops();
    register_transformers_ops();
  });
}

}  // namespace exportlens::runtime

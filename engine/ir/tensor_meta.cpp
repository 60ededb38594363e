#include "engine/ir/tensor_meta.h"

namespace exportlens::ir {

std::string TensorMeta::annotation() const {
  std::string out(short_name(dtype));
  out += '[';
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) out += ", ";
    out += sizes[i].str();
  }
  out += ']';
  return out;
}

std::optional<int64_t> TensorMeta::static_numel() const {
  int64_t n = 1;
  for (const auto& s : sizes) {
    auto v = s.expr.as_integer();
    if (!v || __builtin_mul_overflow(n, *v, &n)) return std::nullopt;  // symbolic, or not a size at all
  }
  return n;
}

}  // namespace exportlens::ir

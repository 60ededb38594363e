#include "engine/ir/tensor_extent.h"

namespace exportlens::ir {
std::optional<int64_t> example_value(const SymInt& s) {
  if (auto v = s.expr.as_integer()) return v;
  return s.hint;
}

std::optional<std::string> layout_problem(const TensorMeta& m) {
  if (!m.strides.empty() && m.strides.size() != m.sizes.size())
    return "has " + std::to_string(m.sizes.size()) + " sizes but " + std::to_string(m.strides.size()) + " strides";
  int64_t numel = 1;
  for (size_t d = 0; d < m.sizes.size(); ++d) {
    const auto size = example_value(m.sizes[d]);
    if (size && *size < 0) return "size " + std::to_string(*size) + " of dimension " + std::to_string(d) + " is negative";
    if (size && __builtin_mul_overflow(numel, *size, &numel))
      return "its sizes multiply past the int64 range (dimension " + std::to_string(d) + ")";
  }
  for (size_t d = 0; d < m.strides.size(); ++d)
    if (const auto stride = example_value(m.strides[d]); stride && *stride < 0)
      return "stride " + std::to_string(*stride) + " of dimension " + std::to_string(d) + " is negative";
  if (const auto offset = example_value(m.storage_offset); offset && *offset < 0)
    return "storage offset " + std::to_string(*offset) + " is negative";
  bool all_known = m.strides.size() == m.sizes.size() && example_value(m.storage_offset);
  for (size_t d = 0; all_known && d < m.sizes.size(); ++d) all_known = example_value(m.sizes[d]) && example_value(m.strides[d]);
  if (all_known && !storage_extent(m)) return "its strides reach past the int64 range";
  return std::nullopt;
}

std::optional<int64_t> storage_extent(const TensorMeta& m) {
  if (m.strides.size() != m.sizes.size()) return std::nullopt;
  const auto offset = example_value(m.storage_offset);
  if (!offset || *offset < 0) return std::nullopt;
  int64_t last = *offset;  // the highest element index the view touches
  for (size_t d = 0; d < m.sizes.size(); ++d) {
    const auto size = example_value(m.sizes[d]), stride = example_value(m.strides[d]);
    if (!size || !stride || *size < 0 || *stride < 0) return std::nullopt;
    if (*size == 0) return 0;
    int64_t step = 0;
    if (__builtin_mul_overflow(*size - 1, *stride, &step) || __builtin_add_overflow(last, step, &last))
      return std::nullopt;
  }
  int64_t extent = 0;
  if (__builtin_add_overflow(last, 1, &extent)) return std::nullopt;
  return extent;
}

std::optional<int64_t> byte_size(int64_t count, ScalarType dtype) {
  int64_t bytes = 0;
  if (count < 0 || __builtin_mul_overflow(count, int64_t(element_size(dtype)), &bytes)) return std::nullopt;
  return bytes;
}

}  // namespace exportlens::ir

#include "engine/ir/payload_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "engine/ir/tensor_extent.h"

namespace exportlens::ir {
namespace {

double half_to_double(uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double value;
  if (exponent == 0) {
    value = mantissa * (1.0 / (1 << 24));
  } else if (exponent == 31) {
    value = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    value = (1.0 + mantissa / 1024.0) * std::ldexp(1.0, exponent - 15);
  }
  return sign ? -value : value;
}

template <class T>
double load(const std::byte* at) {
  T v;
  std::memcpy(&v, at, sizeof v);
  return static_cast<double>(v);
}

double element(const std::byte* at, ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: return load<float>(at);
    case ScalarType::Double: return load<double>(at);
    case ScalarType::Long: return load<int64_t>(at);
    case ScalarType::Int: return load<int32_t>(at);
    case ScalarType::Short: return load<int16_t>(at);
    case ScalarType::Char: return load<int8_t>(at);
    case ScalarType::Byte: return load<uint8_t>(at);
    case ScalarType::UInt16: return load<uint16_t>(at);
    case ScalarType::Bool: return load<uint8_t>(at) ? 1 : 0;
    case ScalarType::Half: {
      uint16_t h;
      std::memcpy(&h, at, 2);
      return half_to_double(h);
    }
    case ScalarType::BFloat16: {
      uint16_t b;
      std::memcpy(&b, at, 2);
      const uint32_t bits = uint32_t(b) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    default: throw std::runtime_error("no plain decoding for this dtype");
  }
}

bool decodable(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: case ScalarType::Double: case ScalarType::Long: case ScalarType::Int:
    case ScalarType::Short: case ScalarType::Char: case ScalarType::Byte: case ScalarType::UInt16:
    case ScalarType::Bool: case ScalarType::Half: case ScalarType::BFloat16:
      return true;
    default:
      return false;
  }
}

}  // namespace

PayloadValues payload_values(const TensorPayload& payload, size_t first) {
  const TensorMeta& m = payload.meta;
  std::vector<int64_t> sizes, strides;
  for (const auto& s : m.sizes) sizes.push_back(example_value(s).value_or(-1));
  for (const auto& s : m.strides) strides.push_back(example_value(s).value_or(-1));
  const int64_t offset = example_value(m.storage_offset).value_or(-1);
  if (offset < 0 || sizes.size() != strides.size() || std::count(sizes.begin(), sizes.end(), -1) ||
      std::count(strides.begin(), strides.end(), -1))
    throw std::runtime_error("its sizes have no example values");
  const auto extent = storage_extent(m);
  const int size = element_size(m.dtype);
  if (!extent || size == 0) throw std::runtime_error("no plain decoding for this dtype");
  if (!decodable(m.dtype)) throw std::runtime_error("no plain decoding for " + std::string(torch_name(m.dtype)));
  const auto bytes = payload.data();
  if (!bytes) throw std::runtime_error("no data");
  PayloadValues out;
  out.bytes = bytes->size();
  int64_t count = 1;
  for (int64_t s : sizes) count *= s;
  out.count = count;
  if (count == 0) return out;
  if (bytes->empty()) {  // torch writes some lifted constants without data: zeros
    out.first.assign(std::min<size_t>(first, size_t(count)), 0.0);
    return out;
  }
  if (static_cast<uint64_t>(*extent) * size > bytes->size()) throw std::runtime_error("its view runs past its bytes");
  std::vector<int64_t> index(sizes.size(), 0);
  double sum = 0;
  out.min = std::numeric_limits<double>::infinity();
  out.max = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = offset;
    for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
    const double v = element(bytes->data() + at * size, m.dtype);
    if (out.first.size() < first) out.first.push_back(v);
    out.min = std::min(out.min, v);
    out.max = std::max(out.max, v);
    sum += v;
    for (size_t d = index.size(); d-- > 0;) {  // the next index, last dim fastest
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  out.mean = sum / double(count);
  return out;
}

}  // namespace exportlens::ir

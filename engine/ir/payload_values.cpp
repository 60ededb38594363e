#include "engine/ir/payload_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
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

PayloadElements::PayloadElements(const TensorPayload& payload) : dtype_(payload.meta.dtype) {
  const TensorMeta& m = payload.meta;
  for (const auto& s : m.sizes) sizes_.push_back(example_value(s).value_or(-1));
  for (const auto& s : m.strides) strides_.push_back(example_value(s).value_or(-1));
  offset_ = example_value(m.storage_offset).value_or(-1);
  if (offset_ < 0 || sizes_.size() != strides_.size() || std::count(sizes_.begin(), sizes_.end(), -1) ||
      std::count(strides_.begin(), strides_.end(), -1))
    throw std::runtime_error("its sizes have no example values");
  const auto extent = storage_extent(m);
  element_size_ = element_size(m.dtype);
  if (!extent || element_size_ == 0) throw std::runtime_error("no plain decoding for this dtype");
  if (!decodable(m.dtype)) throw std::runtime_error("no plain decoding for " + std::string(torch_name(m.dtype)));
  bytes_ = payload.data();
  if (!bytes_) throw std::runtime_error("no data");
  count_ = 1;
  for (int64_t s : sizes_) count_ *= s;
  // torch writes some lifted constants without data: zeros.
  if (count_ > 0 && !bytes_->empty() && static_cast<uint64_t>(*extent) * element_size_ > bytes_->size())
    throw std::runtime_error("its view runs past its bytes");
  index_.assign(sizes_.size(), 0);
}

size_t PayloadElements::read(double* out, size_t max) {
  size_t n = 0;
  for (; n < max && done_ < count_; ++n, ++done_) {
    if (bytes_->empty()) {
      out[n] = 0.0;
      continue;
    }
    int64_t at = offset_;
    for (size_t d = 0; d < index_.size(); ++d) at += index_[d] * strides_[d];
    out[n] = element(bytes_->data() + at * element_size_, dtype_);
    for (size_t d = index_.size(); d-- > 0;) {  // the next index, last dim fastest
      if (++index_[d] < sizes_[d]) break;
      index_[d] = 0;
    }
  }
  return n;
}

PayloadValues payload_values(const TensorPayload& payload, size_t first) {
  PayloadElements elements(payload);
  PayloadValues out;
  out.bytes = elements.bytes();
  out.count = elements.count();
  if (out.count == 0) return out;
  double sum = 0;
  out.min = std::numeric_limits<double>::infinity();
  out.max = -std::numeric_limits<double>::infinity();
  double chunk[4096];
  for (size_t got; (got = elements.read(chunk, std::size(chunk))) > 0;)
    for (size_t i = 0; i < got; ++i) {
      const double v = chunk[i];
      if (out.first.size() < first) out.first.push_back(v);
      out.min = std::min(out.min, v);
      out.max = std::max(out.max, v);
      sum += v;
    }
  out.mean = sum / double(out.count);
  return out;
}

}  // namespace exportlens::ir

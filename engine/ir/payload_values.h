#pragma once
// A weight's values at a glance without LibTorch: the first few elements and
// the minimum, maximum and mean over all of them, decoded from the raw bytes
// as stored (little-endian, laid out by the metadata's strides). Reads the
// bytes when the program was opened without them (TensorPayload::data()).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct PayloadValues {
  std::vector<double> first;  // in index order
  int64_t count = 0;          // elements of the view
  double min = 0, max = 0, mean = 0;
  uint64_t bytes = 0;         // the stored bytes read
};

/// The elements of a payload in index order, decoded to double a chunk at
/// a time (two weights compared element by element are read in step).
/// Throws std::runtime_error as payload_values() does.
class PayloadElements {
 public:
  explicit PayloadElements(const TensorPayload& payload);
  int64_t count() const { return count_; }
  uint64_t bytes() const { return bytes_->size(); }
  /// Decodes up to `max` next elements into `out`; how many (0 at the end).
  size_t read(double* out, size_t max);

 private:
  ScalarType dtype_;
  std::vector<int64_t> sizes_, strides_, index_;
  int64_t offset_ = 0, count_ = 0, done_ = 0;
  int element_size_ = 0;
  std::shared_ptr<const std::vector<std::byte>> bytes_;
};

/// Throws std::runtime_error when the payload cannot be previewed: a dtype without a plain decoding (complex, float8),
/// symbolic sizes, or a view past its bytes.
PayloadValues payload_values(const TensorPayload& payload, size_t first = 12);

}  // namespace exportlens::ir

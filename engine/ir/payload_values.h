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

/// Throws std::runtime_error when the payload cannot be previewed: pickled
/// (a run unpickles it), a dtype without a plain decoding (complex, float8),
/// symbolic sizes, or a view past its bytes.
PayloadValues payload_values(const TensorPayload& payload, size_t first = 12);

}  // namespace exportlens::ir

#pragma once
// A tensor's values as the tensor viewer shows them, without LibTorch: its
// dtype, shape and strides, its statistics (min, max, mean, std, abs-max,
// zeros, NaN, Inf), a histogram, and its elements as float (row-major) for
// 2-D slices and the worst elements. What a numerics run keeps for the nodes
// a user asks about, and what a weight read from the archive becomes.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace exportlens::numerics {

struct TensorStats {
  double min = 0, max = 0, mean = 0, std = 0, abs_max = 0;
  int64_t zeros = 0, nans = 0, infs = 0;
};

struct TensorSnapshot {
  std::string dtype;  // "f32", "bf16", "i64" (print(ep)'s short names)
  std::string device;
  std::vector<int64_t> sizes, strides;
  TensorStats stats;
  /// Counts over [stats.min, stats.max] in equal bins (finite elements only).
  std::vector<int64_t> histogram;
  /// Every element as float, row-major; empty when the tensor was over the
  /// snapshot's element limit (its stats and histogram are still whole).
  std::vector<float> values;

  int64_t numel() const;
  /// The flat (row-major) index of a multi-index, and back.
  int64_t flat(const std::vector<int64_t>& index) const;
  std::vector<int64_t> unflat(int64_t flat) const;
};

/// A's and B's values of one node side by side, with B - A.
struct SnapshotPair {
  TensorSnapshot a, b, difference;
  bool only_a = false;  // a value both runs share (a graph input): `a` alone
};

/// The elements where |b - a| is largest: (flat index, a, b), worst first.
std::vector<std::tuple<int64_t, float, float>> worst_elements(const SnapshotPair& pair, size_t count);
/// One tensor's elements of largest magnitude (NaN and Inf first): (flat index, value).
std::vector<std::pair<int64_t, float>> largest_elements(const TensorSnapshot& t, size_t count);

}  // namespace exportlens::numerics

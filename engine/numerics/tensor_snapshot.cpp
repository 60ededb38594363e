#include "engine/numerics/tensor_snapshot.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace exportlens::numerics {

int64_t TensorSnapshot::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

int64_t TensorSnapshot::flat(const std::vector<int64_t>& index) const {
  int64_t f = 0;
  for (size_t d = 0; d < sizes.size() && d < index.size(); ++d) f = f * sizes[d] + index[d];
  return f;
}

std::vector<int64_t> TensorSnapshot::unflat(int64_t flat) const {
  std::vector<int64_t> index(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    index[d] = sizes[d] ? flat % sizes[d] : 0;
    flat = sizes[d] ? flat / sizes[d] : 0;
  }
  return index;
}

namespace {

// The `count` positions of largest `key`, largest first, in one partial sort.
template <class Key>
std::vector<int64_t> top_positions(size_t n, size_t count, Key key) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  count = std::min(count, n);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                    [&](int64_t x, int64_t y) { return key(x) > key(y); });
  order.resize(count);
  return order;
}

// NaN and Inf rank above every finite magnitude.
double magnitude(double v) { return std::isfinite(v) ? std::abs(v) : std::numeric_limits<double>::infinity(); }

}  // namespace

std::vector<std::tuple<int64_t, float, float>> worst_elements(const SnapshotPair& pair, size_t count) {
  const auto& a = pair.a.values;
  const auto& b = pair.b.values;
  std::vector<std::tuple<int64_t, float, float>> out;
  if (a.size() != b.size()) return out;
  for (int64_t i : top_positions(a.size(), count, [&](int64_t i) { return magnitude(double(b[i]) - double(a[i])); }))
    out.emplace_back(i, a[size_t(i)], b[size_t(i)]);
  return out;
}

std::vector<std::pair<int64_t, float>> largest_elements(const TensorSnapshot& t, size_t count) {
  std::vector<std::pair<int64_t, float>> out;
  for (int64_t i : top_positions(t.values.size(), count, [&](int64_t i) { return magnitude(t.values[size_t(i)]); }))
    out.emplace_back(i, t.values[size_t(i)]);
  return out;
}

}  // namespace exportlens::numerics

#include "engine/matching/sequence_alignment.h"

#include <algorithm>
#include <unordered_map>

namespace exportlens::matching {
namespace {

// Too different for Myers: the k-th use of a key matches its k-th use.
std::vector<std::pair<int, int>> by_occurrence(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::unordered_map<uint64_t, std::vector<int>> at;
  for (int j = static_cast<int>(b.size()) - 1; j >= 0; --j) at[b[j]].push_back(j);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    auto it = at.find(a[i]);
    if (it == at.end() || it->second.empty()) continue;
    pairs.emplace_back(i, it->second.back());
    it->second.pop_back();
  }
  return pairs;
}

}  // namespace

std::vector<std::pair<int, int>> longest_common_subsequence(const std::vector<uint64_t>& a,
                                                            const std::vector<uint64_t>& b, int max_edit_distance) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = std::min(n + m, max_edit_distance);
  std::vector<std::vector<int>> trace;
  std::vector<int> v(2 * static_cast<size_t>(max) + 3, 0);
  const int off = max + 1;
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    trace.push_back(v);
  }
  if (found < 0) return by_occurrence(a, b);
  std::vector<std::pair<int, int>> pairs;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& prev = trace[d - 1];
    const int k = x - y;
    const bool down = k == -d || (k != d && prev[off + k - 1] < prev[off + k + 1]);
    const int pk = down ? k + 1 : k - 1;
    const int px = prev[off + pk], py = px - pk;
    const int sx = down ? px : px + 1;  // where the snake of step d starts
    while (x > sx && y > sx - k) pairs.emplace_back(--x, --y);
    x = px, y = py;
  }
  while (x > 0 && y > 0) pairs.emplace_back(--x, --y);
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

namespace {

void align_gap(const KeyLevels& keys, size_t level, int a0, int a1, int b0, int b1, std::vector<std::pair<int, int>>& out) {
  if (level == keys.a.size() || a0 >= a1 || b0 >= b1) return;
  const auto& ka = keys.a[level];
  const auto& kb = keys.b[level];
  const std::vector<uint64_t> sa(ka.begin() + a0, ka.begin() + a1), sb(kb.begin() + b0, kb.begin() + b1);
  int pa = a0, pb = b0;
  for (const auto& [i, j] : longest_common_subsequence(sa, sb)) {
    const int x = a0 + i, y = b0 + j;
    if (x < pa || y < pb) continue;  // the by-occurrence fallback need not increase in b
    align_gap(keys, level + 1, pa, x, pb, y, out);
    out.emplace_back(x, y);
    pa = x + 1, pb = y + 1;
  }
  align_gap(keys, level + 1, pa, a1, pb, b1, out);
}

}  // namespace

std::vector<std::pair<int, int>> align_by_levels(const KeyLevels& keys) {
  std::vector<std::pair<int, int>> out;
  if (keys.a.empty()) return out;
  align_gap(keys, 0, 0, static_cast<int>(keys.a[0].size()), 0, static_cast<int>(keys.b[0].size()), out);
  return out;
}

}  // namespace exportlens::matching

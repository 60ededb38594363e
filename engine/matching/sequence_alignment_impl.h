#pragma once
// align_by_score()'s body (a template: the score is the caller's lambda).
#include <algorithm>
#include <vector>

namespace exportlens::matching {

template <class Score>
std::vector<std::pair<int, int>> align_by_score(int n, int m, Score&& score) {
  const size_t width = static_cast<size_t>(m) + 1;
  std::vector<int> best((static_cast<size_t>(n) + 1) * width, 0), pair_score(static_cast<size_t>(n) * m, 0);
  auto at = [&](int i, int j) -> int& { return best[static_cast<size_t>(i) * width + static_cast<size_t>(j)]; };
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= m; ++j) {
      const int s = score(i - 1, j - 1);
      pair_score[static_cast<size_t>(i - 1) * m + static_cast<size_t>(j - 1)] = s;
      int v = std::max(at(i - 1, j), at(i, j - 1));
      if (s > 0) v = std::max(v, at(i - 1, j - 1) + s);
      at(i, j) = v;
    }
  std::vector<std::pair<int, int>> pairs;
  for (int i = n, j = m; i > 0 && j > 0;) {
    if (at(i, j) == at(i, j - 1)) {
      --j;
    } else if (at(i, j) == at(i - 1, j)) {
      --i;
    } else {
      pairs.emplace_back(i - 1, j - 1);
      --i, --j;
    }
  }
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace exportlens::matching

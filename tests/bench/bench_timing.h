#pragma once
// The benches' clock: the median wall time and the median CPU time of this
// thread over a few runs (on a shared machine the wall time counts the other
// processes' turns too; the work measured is single-threaded).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace exportlens::bench {

struct Timing {
  double wall_ms = 0, cpu_ms = 0;
};

inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Several measurements taken in turns, a round of each at a time, and the
// median of each: a machine that slows down for a while (a shared VM) slows
// them all alike, so their ratios hold where back-to-back medians drift.
inline std::vector<Timing> interleaved_medians(int rounds, const std::vector<std::function<void()>>& work) {
  std::vector<std::vector<double>> wall(work.size()), cpu(work.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < work.size(); ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_ms();
      work[k]();
      cpu[k].push_back(thread_cpu_ms() - c0);
      wall[k].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  std::vector<Timing> out;
  for (size_t k = 0; k < work.size(); ++k) {
    std::sort(wall[k].begin(), wall[k].end());
    std::sort(cpu[k].begin(), cpu[k].end());
    out.push_back({wall[k][wall[k].size() / 2], cpu[k][cpu[k].size() / 2]});
  }
  return out;
}

inline Timing median_ms(int runs, const std::function<void()>& f) { return interleaved_medians(runs, {f})[0]; }

}  // namespace exportlens::bench

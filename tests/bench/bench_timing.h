#pragma once
// How the benches time: the median of several runs, in wall time and in
// this thread's CPU time (on a machine shared with other builds the wall
// time counts their turns too; the CPU time is the figure's own).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace exportlens::bench {

struct Timing {
  double wall_ms = 0, cpu_ms = 0;  // medians
};

inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

template <typename F>
Timing median_ms(int runs, F&& f) {
  std::vector<double> wall, cpu;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_ms();
    f();
    cpu.push_back(thread_cpu_ms() - c0);
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace exportlens::bench

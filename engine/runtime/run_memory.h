#pragma once
// What one run may hold in memory. A program's ops take their sizes from the
// file (aten.full with a file's shape, arange with a huge end, expand then
// contiguous), so the runtime bounds the bytes itself: while a RunMemoryScope
// is alive, every CPU allocation LibTorch makes on that thread is charged to
// the run's budget and refused, as an out-of-memory error, once the run would
// hold more than its limit. Freed tensors give their bytes back. Allocations
// on other threads (intra-op workers' scratch) and on GPUs are not charged:
// the declared-shape check (declared_values.h) bounds those before an op runs.
// LibTorch-free header; the allocator lives in run_memory.cpp.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace exportlens::runtime {

class RunMemoryBudget {
 public:
  explicit RunMemoryBudget(uint64_t limit) : limit_(limit) {}
  uint64_t limit() const { return limit_; }
  uint64_t live() const { return live_.load(std::memory_order_relaxed); }
  uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  /// Takes `bytes` or returns false (nothing taken) when the limit would be passed.
  bool try_charge(uint64_t bytes);
  void release(uint64_t bytes) { live_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> live_{0}, peak_{0};
};

/// Charges this thread's CPU allocations to `budget` while alive (scopes nest;
/// the innermost wins). Installs the counting CPU allocator on first use.
class RunMemoryScope {
 public:
  explicit RunMemoryScope(std::shared_ptr<RunMemoryBudget> budget);
  ~RunMemoryScope();
  RunMemoryScope(const RunMemoryScope&) = delete;
  RunMemoryScope& operator=(const RunMemoryScope&) = delete;

 private:
  std::shared_ptr<RunMemoryBudget> previous_;
};

/// "6.0 GiB (6442450944 bytes)": byte counts in messages.
std::string describe_bytes(uint64_t bytes);

}  // namespace exportlens::runtime

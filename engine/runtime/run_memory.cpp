#include "engine/runtime/run_memory.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include <cstdio>
#include <mutex>
#include <unordered_map>

namespace exportlens::runtime {

bool RunMemoryBudget::try_charge(uint64_t bytes) {
  uint64_t now = live_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || now > limit_ - bytes) return false;
  } while (!live_.compare_exchange_weak(now, now + bytes, std::memory_order_relaxed));
  uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (now + bytes > peak && !peak_.compare_exchange_weak(peak, now + bytes, std::memory_order_relaxed)) {
  }
  return true;
}

std::string describe_bytes(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  if (u == 0) return std::to_string(bytes) + " bytes";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f %s (%llu bytes)", v, units[u], static_cast<unsigned long long>(bytes));
  return text;
}

namespace {

thread_local std::shared_ptr<RunMemoryBudget> t_budget;

// Wraps the CPU allocator that was current when it was installed. Every
// pointer it hands out keeps data == context (LibTorch's raw_allocate needs
// that); the budget a pointer was charged to is found by address when it is
// freed.
class CountingCpuAllocator final : public c10::Allocator {
 public:
  explicit CountingCpuAllocator(c10::Allocator* inner) : inner_(inner), inner_delete_(inner->raw_deleter()) {}

  c10::DataPtr allocate(size_t n) override {
    const std::shared_ptr<RunMemoryBudget>& budget = t_budget;
    if (!budget || n == 0 || !inner_delete_) return inner_->allocate(n);
    if (!budget->try_charge(n))
      throw c10::OutOfMemoryError({__func__, __FILE__, static_cast<uint32_t>(__LINE__)},
                                  "allocating " + describe_bytes(n) + " while the run holds " +
                                      describe_bytes(budget->live()) + " would pass its memory limit of " +
                                      describe_bytes(budget->limit()) + " (raise it with --limit run-bytes=...)");
    c10::DataPtr inner;
    try {
      inner = inner_->allocate(n);
    } catch (...) {
      budget->release(n);
      throw;
    }
    if (inner.get() != inner.get_context()) {  // not a plain pointer: cannot be tracked by address
      budget->release(n);
      return inner;
    }
    const c10::Device device = inner.device();
    void* data = inner.release_context();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      charged_.emplace(data, Charge{budget, n});
    }
    tracked_.fetch_add(1, std::memory_order_relaxed);
    return {data, data, &free_charged, device};
  }

  c10::DeleterFnPtr raw_deleter() const override { return inner_delete_ ? &free_charged : nullptr; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }

  static void free_charged(void* data);

 private:
  struct Charge {
    std::shared_ptr<RunMemoryBudget> budget;
    uint64_t bytes;
  };
  c10::Allocator* inner_;
  c10::DeleterFnPtr inner_delete_;
  std::mutex mutex_;
  std::unordered_map<void*, Charge> charged_;
  std::atomic<uint64_t> tracked_{0};
};

CountingCpuAllocator* g_allocator = nullptr;

void CountingCpuAllocator::free_charged(void* data) {
  CountingCpuAllocator& self = *g_allocator;
  if (data && self.tracked_.load(std::memory_order_relaxed) != 0) {
    std::shared_ptr<RunMemoryBudget> budget;
    uint64_t bytes = 0;
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      if (auto it = self.charged_.find(data); it != self.charged_.end()) {
        budget = std::move(it->second.budget);
        bytes = it->second.bytes;
        self.charged_.erase(it);
        self.tracked_.fetch_sub(1, std::memory_order_relaxed);
      }
    }
    if (budget) budget->release(bytes);
  }
  self.inner_delete_(data);
}

void install_counting_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Never destroyed: tensors may be freed during static destruction.
    g_allocator = new CountingCpuAllocator(c10::GetCPUAllocator());
    c10::SetCPUAllocator(g_allocator, /*priority=*/1);
  });
}

}  // namespace

RunMemoryScope::RunMemoryScope(std::shared_ptr<RunMemoryBudget> budget) {
  install_counting_allocator();
  previous_ = std::move(t_budget);
  t_budget = std::move(budget);
}

RunMemoryScope::~RunMemoryScope() { t_budget = std::move(previous_); }

}  // namespace exportlens::runtime

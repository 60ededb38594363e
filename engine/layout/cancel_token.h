#pragma once
// A flag a caller sets from another thread to ask a long computation to stop.
#include <atomic>
#include <stdexcept>

namespace exportlens::layout {

class CancelToken {
 public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool is_cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

/// Thrown by a computation that noticed its CancelToken.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace exportlens::layout

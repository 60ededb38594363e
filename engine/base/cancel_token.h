#pragma once
// The one cancellation protocol: a flag a caller sets from another thread to
// ask long work to stop (layout, solving, lowering, running, capture,
// numerics); the work checks it at its own safe points and throws Cancelled.
#include <atomic>

#include "engine/base/error.h"

namespace exportlens {

class CancelToken {
 public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool is_cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  /// Throws Cancelled when cancel() was called.
  void check() const;

 private:
  std::atomic<bool> cancelled_{false};
};

/// Thrown by work that noticed its CancelToken.
class Cancelled : public Error {
 public:
  Cancelled() : Error(ErrorKind::Cancelled, {}, "cancelled") {}
};

inline void CancelToken::check() const {
  if (is_cancelled()) throw Cancelled();
}

}  // namespace exportlens

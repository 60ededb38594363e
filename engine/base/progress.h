#pragma once
// How long work says where it is and learns that it should stop, in one
// value: a report of steps done and the CancelToken checked at the same safe
// points (the runtime between nodes; what else steps through a program).
#include <functional>

#include "engine/base/cancel_token.h"

namespace exportlens {

struct Progress {
  std::function<void(int done, int total)> report;  // may be empty
  const CancelToken* cancel = nullptr;              // not owned; may be null

  /// At a safe point: throws Cancelled once cancel was asked for, else reports.
  void at(int done, int total) const {
    if (cancel) cancel->check();
    if (report) report(done, total);
  }
};

}  // namespace exportlens

// The CPU's clock: steady_clock around each node and the run (CPU ops are
// synchronous, so host time is the node's time).
#include <chrono>

#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

class HostClock final : public RunClock {
 public:
  void run_begin() override {
    sample_ = RunSample();
    start_ = Clock::now();
  }
  void node_begin(const ir::Node&) override {
    if (per_node_) node_start_ = Clock::now();
  }
  void node_end(const ir::Node& node, const c10::IValue&) override {
    if (!per_node_) return;
    const auto now = Clock::now();
    sample_.nodes.push_back({&node, ms_between(start_, node_start_), ms_between(node_start_, now)});
  }
  RunSample run_end() override {
    sample_.total_ms = sample_.host_ms = ms_between(start_, Clock::now());
    return std::move(sample_);
  }
  std::string source() const override { return "host clock"; }

 private:
  RunSample sample_;
  Clock::time_point start_, node_start_;
};

}  // namespace

std::unique_ptr<RunClock> make_host_clock() { return std::make_unique<HostClock>(); }

}  // namespace exportlens::runtime

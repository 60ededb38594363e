#pragma once
// The values a program declares (each node's output metadata) held against the
// run: before a node runs, the bytes its declared tensors reach must fit the
// run's memory limit; after it runs, its real value must be the one declared
// (dtype, rank, sizes). Symbols (s0, u0) take their values from the inputs and
// from the first node that produces them, so symbolic sizes are checked too.
// A file whose metadata lies is caught at the first op that disagrees; what
// that op allocated is bounded by the run's budget (run_memory.h). The
// interpreter makes one for every run, as the first of the run's observers
// (node_observer.h), and it sees the subgraphs' nodes too.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "engine/runtime/node_observer.h"

namespace exportlens::runtime {

class DeclaredValues final : public NodeObserver {
 public:
  /// `floats_recast`: the run casts floating weights and inputs (bf16 /
  /// fp16, precision.h), so a floating value may have another floating dtype
  /// than the one declared; its rank and sizes are still checked.
  explicit DeclaredValues(uint64_t memory_limit, bool floats_recast = false)
      : limit_(memory_limit), floats_recast_(floats_recast) {}

  /// Before `n` runs: throws RunError when its declared outputs reach more
  /// bytes than the limit (sizes not yet known are not counted).
  void node_begin(const ir::Node& n) override;
  /// After `n` ran, or a placeholder got its value: throws RunError when the
  /// value is not what the program declares; learns symbols it did not know.
  void node_end(const ir::Node& n, const c10::IValue& value) override { check(n, value); }
  void input_bound(const ir::Node& n, const c10::IValue& value) override { check(n, value); }
  bool sees_subgraphs() const override { return true; }

 private:
  std::optional<int64_t> evaluate(const ir::SymInt& s) const;
  std::optional<uint64_t> declared_bytes(const ir::ValueInfo& v) const;
  std::optional<std::string> disagreement(const ir::ValueInfo& declared, const c10::IValue& value);
  void check(const ir::Node& n, const c10::IValue& value);

  uint64_t limit_;
  bool floats_recast_;
  std::map<std::string, int64_t> symbols_;
};

}  // namespace exportlens::runtime

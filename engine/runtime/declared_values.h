#pragma once
// The values a program declares (each node's output metadata) held against the
// run: before a node runs, the bytes its declared tensors reach must fit the
// run's memory limit; after it runs, its real value must be the one declared
// (dtype, rank, sizes). Symbols (s0, u0) take their values from the inputs and
// from the first node that produces them, so symbolic sizes are checked too.
// A file whose metadata lies is caught at the first op that disagrees; what
// that op allocated is bounded by the run's budget (run_memory.h).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "engine/ir/node.h"

namespace c10 {
struct IValue;
}

namespace exportlens::runtime {

class DeclaredValues {
 public:
  explicit DeclaredValues(uint64_t memory_limit) : limit_(memory_limit) {}

  /// Before `n` runs: throws RunError when its declared outputs reach more
  /// bytes than the limit (sizes not yet known are not counted).
  void before(const ir::Node& n) const;
  /// After `n` ran, or a placeholder got its value: throws RunError when the
  /// value is not what the program declares; learns symbols it did not know.
  void after(const ir::Node& n, const c10::IValue& value);

 private:
  std::optional<int64_t> evaluate(const ir::SymInt& s) const;
  std::optional<uint64_t> declared_bytes(const ir::ValueInfo& v) const;
  std::optional<std::string> disagreement(const ir::ValueInfo& declared, const c10::IValue& value);

  uint64_t limit_;
  std::map<std::string, int64_t> symbols_;
};

}  // namespace exportlens::runtime

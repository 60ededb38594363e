#pragma once
// Saves a variable and puts its value back when the scope ends, exceptions
// included (LLVM's SaveAndRestore): the state a pass sets for a region — the
// node being lowered, the grad mode, the graph being read — holds for that
// region only, without a restore on every way out.
#include <utility>

namespace exportlens {

template <typename T>
class SaveAndRestore {
 public:
  explicit SaveAndRestore(T& slot) : slot_(slot), saved_(slot) {}
  SaveAndRestore(T& slot, T value) : slot_(slot), saved_(std::move(slot)) { slot_ = std::move(value); }
  ~SaveAndRestore() { slot_ = std::move(saved_); }
  SaveAndRestore(const SaveAndRestore&) = delete;
  SaveAndRestore& operator=(const SaveAndRestore&) = delete;

 private:
  T& slot_;
  T saved_;
};

}  // namespace exportlens

// torch.save archives (`run --inputs` files; pickled weights, constants and
// example inputs inside a .pt2): serde::torch_load, our bounded unpickler, then
// every value walked and every tensor's storage read as the runtime reads it
// (saved_values.cpp, which adds only LibTorch's allocation).
#include <cstddef>
#include <memory>
#include <set>
#include <vector>

#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"

namespace {

using exportlens::serde::SaveValue;

// Reads each storage once into a buffer of its size, as the runtime does.
struct Walk {
  std::set<const void*> seen;
  void operator()(const SaveValue& v) { std::visit([this](const auto& x) { visit(x); }, v.v); }
  template <class Scalar>
  void visit(const Scalar&) {}
  void visit(const exportlens::ir::TensorPayload& p) {
    if (!p.source || !seen.insert(p.source.get()).second) return;
    std::vector<std::byte> storage(p.stored_size);
    p.source->read_into(storage);
  }
  template <class Container>
  void visit(const std::shared_ptr<Container>& c) {
    if (!seen.insert(c.get()).second) return;
    for (const auto& item : c->items) {
      if constexpr (std::is_same_v<Container, SaveValue::Dict>) (*this)(item.second);
      else (*this)(item);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::vector<std::byte>>(reinterpret_cast<const std::byte*>(data),
                                                              reinterpret_cast<const std::byte*>(data) + size);
  exportlens::serde::ReadLimits limits;
  limits.max_total_bytes = 64 << 20;
  limits.max_entry_bytes = 64 << 20;
  limits.max_pickle_objects = 100'000;
  try {
    Walk()(exportlens::serde::torch_load(bytes, "fuzz", limits));
  } catch (const exportlens::serde::ArchiveError&) {
  } catch (const std::runtime_error&) {  // a storage read failing: what a PayloadSource throws
  }
  return 0;
}

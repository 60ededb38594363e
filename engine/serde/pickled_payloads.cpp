#include "engine/serde/pickled_payloads.h"

#include "engine/ir/tensor_extent.h"
#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::serde {
namespace {

bool same_values(const std::vector<ir::SymInt>& a, const std::vector<ir::SymInt>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ir::example_value(a[i]) != ir::example_value(b[i])) return false;
  return true;
}

class PickledEntrySource final : public ir::PayloadSource {
 public:
  PickledEntrySource(std::shared_ptr<ArchiveWeights> weights, std::string entry, ir::TensorPayload declared,
                     std::string what, const ReadLimits& limits)
      : weights_(std::move(weights)), entry_(std::move(entry)), declared_(std::move(declared)),
        what_(std::move(what)), limits_(limits) {}

  std::shared_ptr<const std::vector<std::byte>> read() const override { return payload().data(); }
  void read_into(std::span<std::byte> out) const override { payload().read_into(out); }
  uint64_t bytes_read() const override { return weights_->bytes_read(); }

 private:
  ir::TensorPayload payload() const {
    try {
      return pickled_payload(torch_load(weights_->read(entry_), what_, limits_), declared_, what_);
    } catch (const ArchiveError& e) {
      throw std::runtime_error(e.what());  // what a PayloadSource throws
    }
  }
  std::shared_ptr<ArchiveWeights> weights_;
  std::string entry_;
  ir::TensorPayload declared_;
  std::string what_;
  ReadLimits limits_;
};

}  // namespace

ir::TensorPayload pickled_payload(const SaveValue& value, const ir::TensorPayload& declared, const std::string& what) {
  const auto* pickled = std::get_if<ir::TensorPayload>(&value.v);
  if (!pickled) throw ArchiveError(what + " is pickled but is not a tensor");
  ir::TensorPayload p = declared;
  p.bytes = pickled->bytes;
  p.source = pickled->source;
  p.stored_size = pickled->stored_size;
  const bool fake = pickled->bytes && pickled->bytes->empty() && !pickled->source;
  if (fake) return p;
  const ir::TensorMeta& got = pickled->meta;
  const ir::TensorMeta& want = declared.meta;
  if (got.dtype != want.dtype)
    throw ArchiveError(what + ": the pickled tensor is " + std::string(ir::torch_name(got.dtype)) +
                       " but its metadata says " + std::string(ir::torch_name(want.dtype)));
  if (!same_values(got.sizes, want.sizes)) throw ArchiveError(what + ": the pickled tensor's sizes differ from its metadata");
  if (!same_values(got.strides, want.strides) ||
      ir::example_value(got.storage_offset) != ir::example_value(want.storage_offset))
    throw ArchiveError(what + ": the pickled tensor's strides or storage offset differ from its metadata");
  return p;
}

std::shared_ptr<const ir::PayloadSource> pickled_entry_source(std::shared_ptr<ArchiveWeights> weights,
                                                              std::string entry, ir::TensorPayload declared,
                                                              std::string what, const ReadLimits& limits) {
  return std::make_shared<PickledEntrySource>(std::move(weights), std::move(entry), std::move(declared),
                                              std::move(what), limits);
}

}  // namespace exportlens::serde

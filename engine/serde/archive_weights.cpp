#include "engine/serde/archive_weights.h"

#include <stdexcept>

namespace exportlens::serde {
namespace {

class EntrySource : public ir::PayloadSource {
 public:
  EntrySource(std::shared_ptr<ArchiveWeights> weights, std::string entry)
      : weights_(std::move(weights)), entry_(std::move(entry)) {}
  std::shared_ptr<const std::vector<std::byte>> read() const override { return weights_->read(entry_); }
  uint64_t bytes_read() const override { return weights_->bytes_read(); }

 private:
  std::shared_ptr<ArchiveWeights> weights_;
  std::string entry_;
};

}  // namespace

std::shared_ptr<const ir::PayloadSource> ArchiveWeights::source(const std::string& entry) {
  return std::make_shared<EntrySource>(shared_from_this(), entry);
}

std::shared_ptr<const std::vector<std::byte>> ArchiveWeights::read(const std::string& entry) {
  std::lock_guard lock(mutex_);
  try {
    zip_->reset_total();
    auto bytes = std::make_shared<const std::vector<std::byte>>(zip_->read(entry));
    bytes_read_ += bytes->size();
    return bytes;
  } catch (const ArchiveError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace exportlens::serde

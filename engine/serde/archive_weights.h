#pragma once
// A .pt2's weights read when they are needed instead of when the program is
// opened: the archive stays open (indexed once), and each payload's source
// reads its entry on demand. Counts the bytes it read, so a caller can tell
// that opening a program read none.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "engine/ir/exported_program.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::serde {

class ArchiveWeights : public std::enable_shared_from_this<ArchiveWeights> {
 public:
  explicit ArchiveWeights(std::shared_ptr<ZipArchive> zip) : zip_(std::move(zip)) {}

  /// A source for one entry ("dm/data/weights/weight_0").
  std::shared_ptr<const ir::PayloadSource> source(const std::string& entry);
  /// The entry's bytes, read and CRC-checked now (serialized: one read at a
  /// time). Each read is bounded by the archive's entry limits; the total
  /// limit counts one read, since reading the weights again is a new read.
  std::shared_ptr<const std::vector<std::byte>> read(const std::string& entry);
  uint64_t bytes_read() const { return bytes_read_.load(); }

 private:
  std::shared_ptr<ZipArchive> zip_;
  std::mutex mutex_;
  std::atomic<uint64_t> bytes_read_{0};
};

}  // namespace exportlens::serde

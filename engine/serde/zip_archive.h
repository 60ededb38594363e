#pragma once
// A small, defensive reader for the zip archives torch writes (.pt2 and
// torch.save files): stored and deflated entries, zip64, CRC checked. Every
// malformed structure is reported with what was wrong and at which offset.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/error.h"
#include "engine/serde/read_limits.h"

namespace exportlens::serde {

/// Raised for any problem reading an archive; what() names the file and place.
class ArchiveError : public Error {
 public:
  explicit ArchiveError(const std::string& message) : Error(ErrorKind::Input, {}, message) {}
};

class ZipArchive {
 public:
  struct Entry {
    std::string name;
    uint64_t local_header_offset = 0;
    uint64_t compressed_size = 0;
    uint64_t uncompressed_size = 0;
    uint32_t crc32 = 0;
    uint16_t method = 0;  // 0 stored, 8 deflate
  };

  /// Opens and indexes the archive; throws ArchiveError if it is not a readable zip.
  explicit ZipArchive(std::filesystem::path path, const ReadLimits& limits = {});
  /// Indexes an archive held in memory (e.g. a torch.save payload inside a
  /// .pt2). `counted_before`: bytes already counted toward the total limit
  /// (its own bytes, inflated out of the archive that held it).
  ZipArchive(std::shared_ptr<const std::vector<std::byte>> bytes, std::string label, const ReadLimits& limits = {},
             uint64_t counted_before = 0);

  const std::filesystem::path& path() const { return path_; }
  const std::vector<Entry>& entries() const { return entries_; }
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  const Entry* find(const std::string& name) const;
  /// The entry's bytes, decompressed and CRC-checked. The entry's declared
  /// sizes are checked against the file and the limits before anything is
  /// allocated; inflating never writes past the declared size.
  std::vector<std::byte> read(const std::string& name) const;
  /// The same into `out`, which holds exactly the entry's inflated size: a
  /// caller that allocates the destination first (a tensor) gets no copy.
  void read_into(const std::string& name, std::span<std::byte> out) const;
  std::string read_text(const std::string& name) const;
  /// Everything read() checks before it reads the data (sizes against the
  /// limits and the file, the local header), without reading it; the entry
  /// counts towards the total limit as if read.
  void check_entry(const std::string& name) const;
  /// Counts the total inflated size afresh (for an archive kept open to read
  /// weights on demand: each later read is a read of its own).
  void reset_total() { inflated_total_ = counted_before_; }

 private:
  void index();
  void read_at(uint64_t offset, void* out, size_t n, const char* what) const;
  void check_budget(const Entry& en) const;
  uint64_t data_offset(const Entry& en) const;
  void fill(const Entry& en, std::span<std::byte> out) const;
  void inflate(const Entry& en, const std::vector<std::byte>& raw, std::span<std::byte> out) const;
  uint64_t size_ = 0;
  ReadLimits limits_;
  uint64_t counted_before_ = 0;
  mutable uint64_t inflated_total_ = 0;
  std::filesystem::path path_;
  std::string label_;
  std::shared_ptr<const std::vector<std::byte>> memory_;
  mutable std::ifstream file_;
  std::vector<Entry> entries_;
  std::map<std::string, size_t> index_;
};

}  // namespace exportlens::serde

#pragma once
// Writes zip archives the way torch's PyTorchFileWriter does: entries stored
// uncompressed, each one's data aligned to 64 bytes (so readers can map
// weights in place), zip64 records where a size or offset needs them. The
// archive is written to a temporary file beside the target and renamed over
// it by finish(), so a failure never leaves a half-written file behind.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace exportlens::serde {

class ZipWriter {
 public:
  /// Opens `<path>.partial` for writing; throws std::runtime_error naming the path.
  explicit ZipWriter(std::filesystem::path path);
  /// Writes into `memory` instead (a torch.save payload inside an archive).
  explicit ZipWriter(std::vector<std::byte>* memory);
  ~ZipWriter();  // removes the temporary file unless finish() ran
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  void add(const std::string& name, std::span<const std::byte> data);
  void add(const std::string& name, std::string_view text);
  bool contains(const std::string& name) const;
  /// Writes the central directory and renames the archive into place (a file).
  void finish();

 private:
  struct Entry {
    std::string name;
    uint64_t offset = 0;
    uint64_t size = 0;
    uint32_t crc = 0;
  };
  void write(const void* data, size_t n);
  std::filesystem::path path_, partial_;
  std::ofstream out_;
  std::vector<std::byte>* memory_ = nullptr;
  uint64_t pos_ = 0;
  std::vector<Entry> entries_;
  bool finished_ = false;
};

}  // namespace exportlens::serde

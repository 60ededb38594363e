#include "engine/serde/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace exportlens::serde {
namespace {

constexpr uint32_t kEndOfCentralDir = 0x06054b50;
constexpr uint32_t kZip64EndLocator = 0x07064b50;
constexpr uint32_t kZip64End = 0x06064b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;

uint16_t le16(const unsigned char* p) { return uint16_t(p[0] | (p[1] << 8)); }
uint32_t le32(const unsigned char* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
uint64_t le64(const unsigned char* p) { return uint64_t(le32(p)) | (uint64_t(le32(p + 4)) << 32); }

std::string hex_offset(uint64_t off) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(off));
  return buf;
}

}  // namespace

ZipArchive::ZipArchive(std::filesystem::path path, const ReadLimits& limits)
    : path_(std::move(path)), label_(path_.string()), limits_(limits) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec))
    throw ArchiveError(label_ + ": no such file");
  size_ = std::filesystem::file_size(path_, ec);
  if (ec) throw ArchiveError(label_ + ": cannot read file size: " + ec.message());
  file_.open(path_, std::ios::binary);
  if (!file_) throw ArchiveError(label_ + ": cannot open for reading");
  index();
}

ZipArchive::ZipArchive(std::shared_ptr<const std::vector<std::byte>> bytes, std::string label, const ReadLimits& limits,
                       uint64_t counted_before)
    : limits_(limits), counted_before_(counted_before), inflated_total_(counted_before), label_(std::move(label)),
      memory_(std::move(bytes)) {
  size_ = memory_->size();
  index();
}

void ZipArchive::read_at(uint64_t offset, void* out, size_t n, const char* what) const {
  if (n == 0 && offset <= size_) return;  // an empty entry: `out` may be null
  if (offset > size_ || n > size_ - offset)
    throw ArchiveError(label_ + ": truncated archive: " + what + " at offset " + hex_offset(offset) +
                       " runs past the end of the file (" + std::to_string(size_) + " bytes)");
  if (memory_) {
    std::memcpy(out, memory_->data() + offset, n);
    return;
  }
  file_.clear();
  file_.seekg(static_cast<std::streamoff>(offset));
  file_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
  if (!file_) throw ArchiveError(label_ + ": read error at offset " + hex_offset(offset));
}

void ZipArchive::index() {
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  const uint64_t tail = std::min<uint64_t>(size_, 65535 + 22);
  if (size_ < 22) throw ArchiveError(label_ + ": not a zip archive (only " + std::to_string(size_) + " bytes)");
  std::vector<unsigned char> buf(tail);
  read_at(size_ - tail, buf.data(), tail, "end of central directory");
  int64_t eocd = -1;
  for (int64_t i = int64_t(tail) - 22; i >= 0; --i)
    if (le32(&buf[i]) == kEndOfCentralDir) { eocd = i; break; }
  if (eocd < 0)
    throw ArchiveError(label_ + ": not a zip archive or truncated (no end-of-central-directory record)");
  const unsigned char* e = &buf[eocd];
  uint64_t count = le16(e + 10);
  uint64_t cd_size = le32(e + 12);
  uint64_t cd_offset = le32(e + 16);
  const uint64_t eocd_abs = size_ - tail + eocd;
  if (eocd_abs >= 20 && (count == 0xffff || cd_offset == 0xffffffff)) {
    unsigned char loc[20];
    read_at(eocd_abs - 20, loc, 20, "zip64 locator");
    if (le32(loc) == kZip64EndLocator) {
      unsigned char z[56];
      const uint64_t z_off = le64(loc + 8);
      read_at(z_off, z, 56, "zip64 end record");
      if (le32(z) != kZip64End) throw ArchiveError(label_ + ": bad zip64 end record at " + hex_offset(z_off));
      count = le64(z + 32);
      cd_size = le64(z + 40);
      cd_offset = le64(z + 48);
    }
  }
  if (cd_offset > size_ || cd_size > size_ - cd_offset)
    throw ArchiveError(label_ + ": truncated archive: central directory at " + hex_offset(cd_offset) +
                       " (" + std::to_string(cd_size) + " bytes) lies outside the file");
  std::vector<unsigned char> cd(cd_size);
  read_at(cd_offset, cd.data(), cd_size, "central directory");
  size_t p = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (p + 46 > cd.size() || le32(&cd[p]) != kCentralHeader)
      throw ArchiveError(label_ + ": corrupt central directory entry " + std::to_string(i) + " at " +
                         hex_offset(cd_offset + p));
    Entry en;
    en.method = le16(&cd[p + 10]);
    en.crc32 = le32(&cd[p + 16]);
    en.compressed_size = le32(&cd[p + 20]);
    en.uncompressed_size = le32(&cd[p + 24]);
    const uint16_t name_len = le16(&cd[p + 28]);
    const uint16_t extra_len = le16(&cd[p + 30]);
    const uint16_t comment_len = le16(&cd[p + 32]);
    en.local_header_offset = le32(&cd[p + 42]);
    if (p + 46 + name_len + extra_len + comment_len > cd.size())
      throw ArchiveError(label_ + ": corrupt central directory entry " + std::to_string(i));
    en.name.assign(reinterpret_cast<const char*>(&cd[p + 46]), name_len);
    // zip64 extended information: fields present only where the 32-bit ones are saturated.
    const unsigned char* x = &cd[p + 46 + name_len];
    for (size_t k = 0; k + 4 <= extra_len;) {
      const uint16_t id = le16(x + k), len = le16(x + k + 2);
      if (k + 4 + len > extra_len) break;
      if (id == 0x0001) {
        const unsigned char* f = x + k + 4;
        size_t o = 0;
        auto take = [&](uint64_t& field) {
          if (field == 0xffffffff && o + 8 <= len) { field = le64(f + o); o += 8; }
        };
        take(en.uncompressed_size);
        take(en.compressed_size);
        take(en.local_header_offset);
      }
      k += 4 + len;
    }
    index_[en.name] = entries_.size();
    entries_.push_back(std::move(en));
    p += 46 + name_len + extra_len + comment_len;
  }
}

const ZipArchive::Entry* ZipArchive::find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

void ZipArchive::check_budget(const Entry& en) const {
  const std::string what = label_ + ": entry '" + en.name + "'";
  if (en.method != 0 && en.method != 8)
    throw ArchiveError(what + " uses unsupported compression method " + std::to_string(en.method));
  if (en.uncompressed_size > limits_.max_entry_bytes)
    throw ArchiveError(what + " declares " + std::to_string(en.uncompressed_size) + " bytes, over the limit of " +
                       std::to_string(limits_.max_entry_bytes) + " (raise it with --limit entry-bytes=...)");
  if (en.method == 0 && en.uncompressed_size != en.compressed_size)
    throw ArchiveError(what + " is stored uncompressed but declares " + std::to_string(en.compressed_size) +
                       " stored and " + std::to_string(en.uncompressed_size) + " inflated bytes");
  if (en.method == 8 && en.uncompressed_size / std::max<uint64_t>(en.compressed_size, 1) > limits_.max_compression_ratio)
    throw ArchiveError(what + " inflates " + std::to_string(en.compressed_size) + " bytes to " +
                       std::to_string(en.uncompressed_size) + ", a ratio over the limit of " +
                       std::to_string(limits_.max_compression_ratio) + " (raise it with --limit ratio=...)");
  if (en.uncompressed_size > limits_.max_total_bytes - std::min(inflated_total_, limits_.max_total_bytes))
    throw ArchiveError(what + ": the archive's entries inflate to more than the limit of " +
                       std::to_string(limits_.max_total_bytes) + " bytes (raise it with --limit total-bytes=...)");
}

// Inflates into exactly the declared size; a stream that would write more, or
// ends short, is corrupt. zlib takes at most 4 GiB per call, hence the chunks.
void ZipArchive::inflate(const Entry& en, const std::vector<std::byte>& raw, std::span<std::byte> out) const {
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw ArchiveError(label_ + ": zlib init failed");
  constexpr uint64_t kChunk = uint64_t(1) << 30;
  auto* in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(raw.data()));
  auto* dst = reinterpret_cast<Bytef*>(out.data());
  zs.next_in = in;
  zs.next_out = dst;
  int rc = Z_OK;
  while (rc == Z_OK) {
    const uint64_t in_done = zs.next_in - in, out_done = zs.next_out - dst;
    if (zs.avail_in == 0) zs.avail_in = static_cast<uInt>(std::min<uint64_t>(kChunk, raw.size() - in_done));
    if (zs.avail_out == 0) zs.avail_out = static_cast<uInt>(std::min<uint64_t>(kChunk, out.size() - out_done));
    rc = ::inflate(&zs, Z_NO_FLUSH);  // Z_BUF_ERROR: input ended early or output full
  }
  const uint64_t produced = zs.next_out - dst;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != out.size())
    throw ArchiveError(label_ + ": corrupt compressed data in '" + en.name + "'");
}

uint64_t ZipArchive::data_offset(const Entry& en) const {
  const std::string& name = en.name;
  unsigned char lh[30];
  read_at(en.local_header_offset, lh, 30, ("local header of '" + name + "'").c_str());
  if (le32(lh) != kLocalHeader)
    throw ArchiveError(label_ + ": corrupt local header of '" + name + "' at " + hex_offset(en.local_header_offset));
  const uint64_t data_off = en.local_header_offset + 30 + le16(lh + 26) + le16(lh + 28);
  if (data_off > size_ || en.compressed_size > size_ - data_off)
    throw ArchiveError(label_ + ": truncated archive: data of '" + name + "' (" + std::to_string(en.compressed_size) +
                       " bytes at offset " + hex_offset(data_off) + ") runs past the end of the file (" +
                       std::to_string(size_) + " bytes)");
  return data_off;
}

void ZipArchive::check_entry(const std::string& name) const {
  const Entry* en = find(name);
  if (!en) throw ArchiveError(label_ + ": missing entry '" + name + "'");
  check_budget(*en);
  data_offset(*en);
  inflated_total_ += en->uncompressed_size;  // as if read: the total limit sees it
}

// Reads (stored) or inflates (deflated) the checked entry into `out`, counts
// it towards the total and checks its CRC.
void ZipArchive::fill(const Entry& en, std::span<std::byte> out) const {
  const uint64_t data_off = data_offset(en);
  if (en.method == 0) {
    read_at(data_off, out.data(), out.size(), ("data of '" + en.name + "'").c_str());
  } else {
    std::vector<std::byte> raw(en.compressed_size);
    read_at(data_off, raw.data(), raw.size(), ("data of '" + en.name + "'").c_str());
    inflate(en, raw, out);
  }
  inflated_total_ += out.size();
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // the fuzz targets mutate entries' bytes, not their checksums
  const uLong crc = crc32_z(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(out.data()), out.size());
  if (crc != en.crc32) throw ArchiveError(label_ + ": CRC mismatch in '" + en.name + "' (corrupt archive)");
#endif
}

std::vector<std::byte> ZipArchive::read(const std::string& name) const {
  const Entry* en = find(name);
  if (!en) throw ArchiveError(label_ + ": missing entry '" + name + "'");
  check_budget(*en);
  std::vector<std::byte> out(en->uncompressed_size);
  fill(*en, out);
  return out;
}

void ZipArchive::read_into(const std::string& name, std::span<std::byte> out) const {
  const Entry* en = find(name);
  if (!en) throw ArchiveError(label_ + ": missing entry '" + name + "'");
  check_budget(*en);
  if (out.size() != en->uncompressed_size)
    throw ArchiveError(label_ + ": entry '" + name + "' holds " + std::to_string(en->uncompressed_size) +
                       " bytes, not the " + std::to_string(out.size()) + " asked for");
  fill(*en, out);
}

std::string ZipArchive::read_text(const std::string& name) const {
  auto bytes = read(name);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace exportlens::serde

#include "engine/serde/zip_writer.h"

#include <zlib.h>

#include <optional>
#include <stdexcept>
#include <system_error>

namespace exportlens::serde {
namespace {

constexpr uint64_t kAlignment = 64;  // PyTorchFileWriter's kFieldAlignment
constexpr uint32_t k32 = 0xffffffffu;

void put16(std::string& b, uint16_t v) {
  b.push_back(char(v & 0xff));
  b.push_back(char(v >> 8));
}
void put32(std::string& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(char((v >> (8 * i)) & 0xff));
}
void put64(std::string& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(char((v >> (8 * i)) & 0xff));
}

// What a local header and its central directory record both hold, from
// "version needed" to the name's length (APPNOTE 4.3.7 and 4.3.12); the
// sizes go to a zip64 extra field when they do not fit.
void put_entry_fields(std::string& h, uint32_t crc, uint64_t size, size_t name_size, bool zip64) {
  put16(h, zip64 ? 45 : 20);  // version needed
  put16(h, 0x0800);           // UTF-8 names
  put16(h, 0);                // stored
  put16(h, 0);
  put16(h, 0x21);             // 1980-01-01, as torch writes
  put32(h, crc);
  put32(h, zip64 ? k32 : uint32_t(size));
  put32(h, zip64 ? k32 : uint32_t(size));
  put16(h, uint16_t(name_size));
}

// The zip64 extra field (APPNOTE 4.5.3): both sizes, and in the central
// directory the local header's offset too.
std::string zip64_field(uint64_t size, std::optional<uint64_t> offset = std::nullopt) {
  std::string f;
  put16(f, 0x0001);
  put16(f, offset ? 24 : 16);
  put64(f, size);
  put64(f, size);
  if (offset) put64(f, *offset);
  return f;
}

uint32_t crc_of(std::span<const std::byte> data) {
  return static_cast<uint32_t>(
      crc32_z(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

}  // namespace

ZipWriter::ZipWriter(std::filesystem::path path) : path_(std::move(path)) {
  partial_ = path_;
  partial_ += ".partial";
  out_.open(partial_, std::ios::binary | std::ios::trunc);
  if (!out_) throw std::runtime_error(path_.string() + ": cannot open for writing");
}

ZipWriter::ZipWriter(std::vector<std::byte>* memory) : memory_(memory) { memory_->clear(); }

ZipWriter::~ZipWriter() {
  if (finished_ || memory_) return;
  out_.close();
  std::error_code ec;
  std::filesystem::remove(partial_, ec);
}

void ZipWriter::write(const void* data, size_t n) {
  if (memory_) {
    const auto* p = static_cast<const std::byte*>(data);
    memory_->insert(memory_->end(), p, p + n);
    pos_ += n;
    return;
  }
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!out_) throw std::runtime_error(path_.string() + ": write failed (disk full?)");
  pos_ += n;
}

bool ZipWriter::contains(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return true;
  return false;
}

void ZipWriter::add(const std::string& name, std::string_view text) {
  add(name, std::span<const std::byte>(reinterpret_cast<const std::byte*>(text.data()), text.size()));
}

void ZipWriter::add(const std::string& name, std::span<const std::byte> data) {
  if (contains(name)) throw std::logic_error("zip entry written twice: " + name);
  Entry e{name, pos_, data.size(), crc_of(data)};
  const bool zip64 = e.size >= k32 || e.offset >= k32;
  std::string h;
  put32(h, 0x04034b50);  // local header
  put_entry_fields(h, e.crc, e.size, name.size(), zip64);
  std::string extra = zip64 ? zip64_field(e.size) : "";
  // Padding so the data starts on a 64-byte boundary (torch's "FB" field).
  const uint64_t unpadded = pos_ + 30 + name.size() + extra.size() + 4;
  const uint64_t pad = (kAlignment - unpadded % kAlignment) % kAlignment;
  put16(extra, 0x4246);  // "FB"
  put16(extra, uint16_t(pad));
  extra.append(pad, 'Z');
  put16(h, uint16_t(extra.size()));
  h += name;
  h += extra;
  write(h.data(), h.size());
  write(data.data(), data.size());
  entries_.push_back(std::move(e));
}

void ZipWriter::finish() {
  const uint64_t cd_start = pos_;
  for (const auto& e : entries_) {
    const bool zip64 = e.size >= k32 || e.offset >= k32;
    std::string c;
    put32(c, 0x02014b50);
    put16(c, zip64 ? 45 : 20);  // made by
    put_entry_fields(c, e.crc, e.size, e.name.size(), zip64);
    const std::string extra = zip64 ? zip64_field(e.size, e.offset) : "";
    put16(c, uint16_t(extra.size()));
    put16(c, 0);  // comment
    put16(c, 0);  // disk
    put16(c, 0);  // internal attributes
    put32(c, 0);  // external attributes
    put32(c, zip64 ? k32 : uint32_t(e.offset));
    c += e.name;
    c += extra;
    write(c.data(), c.size());
  }
  const uint64_t cd_size = pos_ - cd_start;
  const uint64_t count = entries_.size();
  const bool zip64 = count >= 0xffff || cd_start >= k32 || cd_size >= k32;
  std::string t;
  if (zip64) {
    const uint64_t z_off = pos_;
    put32(t, 0x06064b50);
    put64(t, 44);
    put16(t, 45);
    put16(t, 45);
    put32(t, 0);
    put32(t, 0);
    put64(t, count);
    put64(t, count);
    put64(t, cd_size);
    put64(t, cd_start);
    put32(t, 0x07064b50);
    put32(t, 0);
    put64(t, z_off);
    put32(t, 1);
  }
  put32(t, 0x06054b50);
  put16(t, 0);
  put16(t, 0);
  put16(t, zip64 ? 0xffff : uint16_t(count));
  put16(t, zip64 ? 0xffff : uint16_t(count));
  put32(t, zip64 ? k32 : uint32_t(cd_size));
  put32(t, zip64 ? k32 : uint32_t(cd_start));
  put16(t, 0);
  write(t.data(), t.size());
  if (memory_) {
    finished_ = true;
    return;
  }
  out_.close();  // the destructor removes the partial file if anything below fails
  if (!out_) throw std::runtime_error(path_.string() + ": write failed (disk full?)");
  std::error_code ec;
  std::filesystem::rename(partial_, path_, ec);
  if (ec) throw std::runtime_error(path_.string() + ": cannot move the written archive into place: " + ec.message());
  finished_ = true;
}

}  // namespace exportlens::serde

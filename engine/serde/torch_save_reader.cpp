#include "engine/serde/torch_save_reader.h"

#include <atomic>
#include <map>
#include <mutex>

#include "engine/serde/pickle_reader.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::serde {
namespace {

// The opened archive, kept by the sources of its storages.
struct Archive {
  Archive(std::unique_ptr<ZipArchive> z, std::string l) : zip(std::move(z)), label(std::move(l)) {}
  std::unique_ptr<ZipArchive> zip;
  std::string label;
  std::mutex mutex;  // one file position and one inflated total per archive
  std::atomic<uint64_t> bytes_read{0};
};

// One storage record. Each read is a read of its own against the limits
// (all records together were checked to fit when the archive was opened).
class StorageSource final : public ir::PayloadSource {
 public:
  StorageSource(std::shared_ptr<Archive> archive, std::string record)
      : archive_(std::move(archive)), record_(std::move(record)) {}

  std::shared_ptr<const std::vector<std::byte>> read() const override {
    std::shared_ptr<const std::vector<std::byte>> bytes;
    locked([&] { bytes = std::make_shared<const std::vector<std::byte>>(archive_->zip->read(record_)); });
    archive_->bytes_read += bytes->size();
    return bytes;
  }
  void read_into(std::span<std::byte> out) const override {
    locked([&] { archive_->zip->read_into(record_, out); });
    archive_->bytes_read += out.size();
  }
  uint64_t bytes_read() const override { return archive_->bytes_read; }

 private:
  template <class Read>
  void locked(Read read) const {
    const std::lock_guard lock(archive_->mutex);
    archive_->zip->reset_total();
    try {
      read();
    } catch (const ArchiveError& e) {
      throw std::runtime_error(e.what());  // what a PayloadSource throws
    }
  }
  std::shared_ptr<Archive> archive_;
  std::string record_;
};

// ZipArchive's messages start with the archive's label; inside the pickle's
// message (which starts with it too) the label is said once.
std::string without_label(const std::string& message, const std::string& label) {
  return message.rfind(label + ": ", 0) == 0 ? message.substr(label.size() + 2) : message;
}

SaveValue load(const std::shared_ptr<Archive>& archive, const ReadLimits& limits) {
  const ZipArchive& zip = *archive->zip;
  const ZipArchive::Entry* pickle = nullptr;
  for (const auto& e : zip.entries())
    if (e.name == "data.pkl" || e.name.ends_with("/data.pkl")) {
      pickle = &e;
      break;
    }
  if (!pickle) throw ArchiveError(archive->label + ": not a torch.save archive (no data.pkl entry)");
  const std::string prefix = pickle->name.substr(0, pickle->name.size() - std::string_view("data.pkl").size());
  const std::vector<std::byte> bytes = zip.read(pickle->name);

  std::map<std::string, PickledStorage> storages;  // by key: tensors viewing one storage share it
  const StorageLoader loader = [&](const StorageRequest& r) -> PickledStorage {
    const int64_t element = ir::element_size(r.dtype);
    int64_t needed = 0;
    if (__builtin_mul_overflow(r.numel, element, &needed))
      throw ArchiveError("storage '" + r.key + "' declares " + std::to_string(r.numel) + " elements, past int64's bytes");
    if (auto it = storages.find(r.key); it != storages.end()) {
      if (it->second.bytes != static_cast<uint64_t>(needed))
        throw ArchiveError("storage '" + r.key + "' is named again with another size");
      return it->second;
    }
    const std::string record = prefix + "data/" + r.key;
    const ZipArchive::Entry* entry = zip.find(record);
    if (!entry) throw ArchiveError("storage '" + r.key + "' has no record " + record);
    if (entry->uncompressed_size != static_cast<uint64_t>(needed))
      throw ArchiveError("storage '" + r.key + "' declares " + std::to_string(r.numel) + " elements of " +
                         std::string(ir::torch_name(r.dtype)) + " (" + std::to_string(needed) +
                         " bytes) but its record holds " + std::to_string(entry->uncompressed_size));
    try {
      zip.check_entry(record);  // entry and ratio limits; all records together within the total
    } catch (const ArchiveError& e) {
      throw ArchiveError(without_label(e.what(), archive->label));
    }
    PickledStorage s{std::make_shared<StorageSource>(archive, record), static_cast<uint64_t>(needed)};
    storages.emplace(r.key, s);
    return s;
  };
  return read_pickle(bytes, archive->label + ": " + pickle->name, limits, loader);
}

}  // namespace

SaveValue torch_load(const std::filesystem::path& path, const ReadLimits& limits) {
  return load(std::make_shared<Archive>(std::make_unique<ZipArchive>(path, limits), path.string()), limits);
}

SaveValue torch_load(std::shared_ptr<const std::vector<std::byte>> bytes, const std::string& label,
                     const ReadLimits& limits) {
  const uint64_t own = bytes->size();
  return load(std::make_shared<Archive>(std::make_unique<ZipArchive>(std::move(bytes), label, limits, own), label), limits);
}

}  // namespace exportlens::serde

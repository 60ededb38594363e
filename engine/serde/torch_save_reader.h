#pragma once
// torch.load for every torch.save archive ExportLens reads: inputs files
// (`run --inputs`, `check --additional-inputs`) and those a .pt2 holds
// (pickled weights and constants, torch <= 2.8's weight dicts, example
// inputs). The zip is read with the limits of the file it came from, its
// pickle by our unpickler (pickle_reader.h), and every storage record the
// pickle names is checked before anything is allocated: present, exactly
// numel × element size bytes, and within the entry, ratio and total limits,
// all records together. Storages are not read here: each tensor's source
// reads its record when asked, straight into the caller's buffer with
// read_into (so a tensor is allocated once, at its storage's size).
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/serde/read_limits.h"
#include "engine/serde/torch_save_writer.h"

namespace exportlens::serde {

/// A torch.save file on disk, read as needed, never whole. Throws
/// ArchiveError naming the file, the entry and, in the pickle, the offset.
SaveValue torch_load(const std::filesystem::path& path, const ReadLimits& limits);

/// A torch.save archive held in memory, read out of another archive under
/// `limits`: its own bytes count toward that archive's total, and so does
/// everything it inflates. `label` names it ("weight 'fc1.weight'").
SaveValue torch_load(std::shared_ptr<const std::vector<std::byte>> bytes, const std::string& label,
                     const ReadLimits& limits);

}  // namespace exportlens::serde

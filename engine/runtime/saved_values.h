#pragma once
// Values of a torch.save archive (serde::torch_load, our unpickler) as
// LibTorch values, for `run --inputs` and `check --additional-inputs`: each
// storage is allocated once, at its record's size, and its record read
// straight into it (tensors viewing one storage share it, as torch.load's
// do); containers become tuples, lists and string-keyed dicts. LibTorch
// headers: include only from engine/runtime sources and tests.
#include <ATen/core/ivalue.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/serde/read_limits.h"
#include "engine/serde/torch_save_writer.h"

namespace exportlens::runtime {

/// `value` as a LibTorch value (tensors on the CPU).
c10::IValue to_ivalue(const serde::SaveValue& value);

/// The one value a torch.save file holds (`what` names it in errors:
/// "inputs", "reference values"). Throws std::runtime_error naming the file.
c10::IValue load_saved_value(const std::filesystem::path& path, const std::string& what,
                             const serde::ReadLimits& limits = {});

/// The values of an inputs file: its tuple's or list's items, else the one
/// value. Throws std::runtime_error naming the file and what is wrong.
std::vector<c10::IValue> load_inputs_file(const std::filesystem::path& path, const serde::ReadLimits& limits = {});

/// Writes `values` as one torch.save'd tuple (Python reads it with torch.load).
/// Throws std::runtime_error naming the file when it cannot be written.
void save_values_file(const std::filesystem::path& path, const std::vector<c10::IValue>& values);

}  // namespace exportlens::runtime

#pragma once
// What `exportlens info` and `exportlens kernels` print about an archive's
// contents and its compiled models, as text and JSON.
#include <string>

#include "engine/compiled/archive_contents.h"
#include "engine/compiled/kernel_map.h"

namespace exportlens::compiled {

/// The archive's kind, its programs and, per compiled model, its device,
/// interface, constants, files and kernels in a few lines (the libraries
/// listed, never loaded). `selected`: the program the rest of the report is about.
std::string archive_text(const ArchiveContents& contents, const std::string& selected = "");

/// One compiled model's kernels in launch order: name, where it is launched
/// and defined, its nodes (those the program lacks marked `?` when `map` is given).
std::string kernels_text(const CompiledModel& model, const KernelMap* map = nullptr);

/// The same as JSON (the archive, each compiled model with its kernels; `map` adds nodes_in_program).
std::string contents_json(const ArchiveContents& contents, const CompiledModel* model = nullptr,
                          const KernelMap* map = nullptr);

/// "1.5 MB", "34.6 KB", "128 B".
std::string byte_size(uint64_t bytes);

}  // namespace exportlens::compiled

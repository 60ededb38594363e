#pragma once
// What a .pt2 holds. `.pt2` is the PT2 archive format, and users hold several
// kinds under the one extension:
//   - torch.export.save: one exported program (models/model.json, weights);
//   - package_pt2 with several programs (models/forward.json, models/other.json);
//   - an AOTInductor package (aoti_compile_and_package): compiled models only,
//     data/aotinductor/<model>/ with the wrapper .so, its C++ sources and metadata;
//   - package_pt2 with both: programs and the models compiled from them.
// Listing reads the zip index and small metadata only: no weights, never a
// shared library, and it runs nothing.
#include <filesystem>
#include <string>
#include <vector>

#include "engine/compiled/compiled_model.h"
#include "engine/serde/read_limits.h"

namespace exportlens::compiled {

struct ArchiveContents {
  std::filesystem::path path;
  std::string folder;                   // the archive's top folder, "model/"
  std::vector<std::string> programs;    // exported programs (models/<name>.json), in archive order
  std::vector<CompiledModel> compiled;  // AOTInductor models (data/aotinductor/<name>/)
  std::string archive_version;          // archive_version's text ("1"); "" when absent
  bool flat = false;                    // torch <= 2.7's one-program layout
  /// "exported program", "2 exported programs", "AOTInductor package with 1 compiled model",
  /// "1 exported program and 1 compiled model".
  std::string kind() const;
  /// The compiled model of that name, or nullptr.
  const CompiledModel* compiled_model(const std::string& name) const;
  /// The program a compiled model was compiled from when the archive holds it
  /// (package_pt2 with both: the same name), else "".
  std::string program_of(const CompiledModel& model) const;
};

/// Reads what `path` holds. Throws exportlens::Error (Input, Limit) in one
/// line naming the file and entry: not a zip, no archive_format, a
/// compiled model whose metadata or provenance lies about itself beyond what
/// the lenient reading forgives, sizes over `limits`.
ArchiveContents read_archive_contents(const std::filesystem::path& path, const serde::ReadLimits& limits = {});

/// One source file's text (a wrapper or kernel .cpp / .py / .ptx), read on demand
/// and bounded by `limits` (a source over max_source_bytes is refused in one line).
std::string read_source(const std::filesystem::path& archive, const std::string& entry,
                        const serde::ReadLimits& limits = {});

}  // namespace exportlens::compiled

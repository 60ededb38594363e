#pragma once
// Where a program comes from, decided in one place (as Netron has one opener
// per format, each with its match): a file is a torch.export archive (.pt2,
// read by serde) or a C++ model library (traced by trace/), told by its
// suffix, or, for a file without a known suffix, by its first bytes (a zip
// archive, an ELF / Mach-O / PE binary). The CLI, the GUI's Open, Open
// Recent, the command line and drag and drop all ask here.
#include <filesystem>
#include <string>
#include <vector>

namespace exportlens::sources {

enum class SourceKind {
  Unknown,
  ExportedProgram,  // a .pt2 written by torch.export.save
  ModelLibrary,     // a shared library built against the SDK header
};

struct SourceFormat {
  SourceKind kind;
  std::string description;            // "Exported programs", "Model libraries"
  std::vector<std::string> suffixes;  // ".pt2"; ".so", ".dylib", ".dll"
};

/// Every format, in the order file dialogs offer them.
const std::vector<SourceFormat>& source_formats();

/// What `path` is: by its suffix (case-insensitive), else by its first bytes
/// when the file exists; Unknown when neither tells.
SourceKind match_source(const std::filesystem::path& path);

/// A file-dialog filter for one kind: "Exported programs (*.pt2)".
std::string dialog_filter(SourceKind kind);

}  // namespace exportlens::sources

#pragma once
// Where a program comes from, in one place (as Netron has one opener per
// format, each with its match and its open): a torch.export archive (.pt2,
// read by serde), a C++ model library (traced by trace/), or a built-in
// example ("example:NAME", a C++ port of a torch.export tutorial's or the
// book chapter's model, traced). A file is told by its suffix, or, without a
// known one, by its first bytes (a zip archive; an ELF / Mach-O / PE binary).
// The CLI's commands, the GUI's Open, Open Recent, the command line and drag
// and drop all match and open through here.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/serde/pt2_reader.h"
#include "engine/trace/trace_facade.h"

namespace exportlens::sources {

enum class SourceKind {
  Unknown,
  ExportedProgram,  // a .pt2 written by torch.export.save
  ModelLibrary,     // a shared library built against the SDK header
  BuiltinExample,   // "example:NAME": one of the built-in C++ examples
  Capture,          // a folder `exportlens capture` wrote (or its manifest.json): every export call of a script
  TraceLog,         // torch's structured trace log (TORCH_TRACE): a log file or its folder
};

/// How to open a source.
struct OpenRequest {
  serde::ReadOptions read;  // .pt2: limits, and whether weights are inflated
  std::string model;        // a model library's model ("" = its only one)
  /// Which program of a source that holds several: a .pt2's program by name
  /// ("forward"; "" = "model", else the first), a capture's attempt ("2"; "" =
  /// the first failed attempt, else the first).
  std::string program;
  trace::TraceRequest trace;  // traced sources: spec instead of the model's own, guard log
};

/// What opening gives: the program, or for a trace torch.export refuses, no
/// program and torch's report (error type, message, violations, fixes).
using OpenOutcome = trace::TraceOutcome;

struct SourceFormat {
  SourceKind kind;
  std::string description;            // "Exported programs", "Model libraries"
  std::vector<std::string> suffixes;  // ".pt2"; ".so", ".dylib", ".dll"
  std::string scheme;                 // "example:" for the built-in examples
  /// Whether a file's first bytes (at least 4) are this format's.
  bool (*matches_bytes)(const unsigned char* head);
  /// Whether a file or folder is this format's, by what it holds (formats a suffix does not tell).
  bool (*matches_path)(const std::filesystem::path& path);
  /// Opens `path`; a broken file throws (serde::Pt2Error, std::runtime_error)
  /// with one line naming what and where.
  OpenOutcome (*open)(const std::string& path, const OpenRequest& request);
};

inline constexpr char kExampleScheme[] = "example:";

/// Every format, in the order file dialogs offer them.
const std::vector<SourceFormat>& source_formats();

/// What `path` is: by its scheme or suffix (case-insensitive), else by its
/// first bytes when the file exists, else (a folder) by what it holds;
/// Unknown when nothing tells.
SourceKind match_source(const std::filesystem::path& path);

/// Opens `path` as the format match_source() finds; an unknown kind throws.
OpenOutcome open_source(const std::string& path, const OpenRequest& request = {});
/// The program, or std::runtime_error with torch's report as one line when a
/// trace is refused (what commands that need a program say).
/// `notes`, when given, receives what the reader left out (OpenOutcome::notes).
ir::ExportedProgram open_program(const std::string& path, const OpenRequest& request = {},
                                 std::vector<std::string>* notes = nullptr);

/// A file-dialog filter for one kind: "Exported programs (*.pt2)".
std::string dialog_filter(SourceKind kind);

}  // namespace exportlens::sources

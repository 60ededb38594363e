#include "engine/sources/program_source.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <stdexcept>

#include "engine/base/error.h"
#include "engine/capture/attempt_program.h"
#include "engine/capture/capture_folder.h"
#include "engine/capture/trace_log.h"
#include "engine/compiled/archive_contents.h"
#include "engine/sources/traced_sources.h"

namespace exportlens::sources {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool is_zip(const unsigned char* m) { return m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4; }

bool is_binary(const unsigned char* m) {
  const bool elf = m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
  const bool macho = (m[0] == 0xcf || m[0] == 0xce) && m[1] == 0xfa && m[2] == 0xed && m[3] == 0xfe;
  const bool pe = m[0] == 'M' && m[1] == 'Z';
  return elf || macho || pe;
}

// A .pt2's program: the one named by OpenRequest::program, else "model" or
// the first. An archive without one (an AOTInductor package) says what it
// holds instead and how to name the program its models were compiled from.
OpenOutcome open_archive(const std::string& path, const OpenRequest& request) {
  const compiled::ArchiveContents contents = compiled::read_archive_contents(path, request.read.limits);
  if (contents.programs.empty()) {
    std::string names;
    for (const auto& m : contents.compiled) names += (names.empty() ? "'" : ", '") + m.name + "'";
    throw Error(ErrorKind::Input, {.file = path},
                "an " + contents.kind() + " with no exported program: compiled model " + names +
                    " (`exportlens info` shows it, `run --compiled NAME` runs it; --program-file FILE.pt2 names the "
                    "program it was compiled from)");
  }
  if (!request.program.empty() &&
      std::find(contents.programs.begin(), contents.programs.end(), request.program) == contents.programs.end()) {
    std::string names;
    for (const auto& p : contents.programs) names += (names.empty() ? "" : ", ") + p;
    throw Error(ErrorKind::Usage, {.file = path},
                "no program named '" + request.program + "' in the archive (it holds: " + names + ")");
  }
  OpenOutcome out;
  out.program = serde::read_pt2(path, request.program, request.read);
  return out;
}

OpenOutcome open_library(const std::string& path, const OpenRequest& request) {
  return open_library_source(path, request);
}

OpenOutcome open_example(const std::string& path, const OpenRequest& request) {
  return open_example_source(path.substr(std::string(kExampleScheme).size()), request);
}

// A capture's attempt: its program (exported, draft, or the partial graph);
// an attempt that left none is an error naming why, for commands that need one.
OpenOutcome open_capture(const std::string& path, const OpenRequest& request) {
  const capture::Capture c = capture::read_capture(path, request.read.limits);
  const capture::Attempt& attempt = capture::select_attempt(c, request.program);
  const capture::AttemptDiagnosis diagnosis = capture::diagnose(c, attempt, request.read.limits);
  std::string why;
  auto program = capture::attempt_program(attempt, diagnosis, request.read, &why);
  if (!program)
    throw Error(ErrorKind::Input, {.file = path}, "attempt " + std::to_string(attempt.index) + " has no program: " + why);
  OpenOutcome out;
  out.program = std::move(program->program);
  out.notes = std::move(program->notes);
  return out;
}

OpenOutcome open_trace_log(const std::string& path, const OpenRequest& request) {
  const capture::AttemptDiagnosis diagnosis =
      capture::diagnose(capture::read_trace_log(path, request.read.limits), request.read.limits);
  std::string why;
  auto program = capture::logged_program(diagnosis, request.read.limits, &why);
  if (!program) throw Error(ErrorKind::Input, {.file = path}, why);
  OpenOutcome out;
  out.program = std::move(program->program);
  out.notes = std::move(program->notes);
  return out;
}

const SourceFormat* format_of(SourceKind kind) {
  for (const SourceFormat& f : source_formats())
    if (f.kind == kind) return &f;
  return nullptr;
}

SourceKind by_name(const std::filesystem::path& path) {
  const std::string text = path.string();
  const std::string name = lower(path.filename().string());
  for (const SourceFormat& f : source_formats()) {
    if (!f.scheme.empty() && text.starts_with(f.scheme)) return f.kind;
    for (const std::string& suffix : f.suffixes)
      if (name.size() > suffix.size() && name.ends_with(suffix)) return f.kind;
  }
  return SourceKind::Unknown;
}

SourceKind by_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 4> head{};
  if (!in.read(reinterpret_cast<char*>(head.data()), head.size())) return SourceKind::Unknown;
  for (const SourceFormat& f : source_formats())
    if (f.matches_bytes && f.matches_bytes(head.data())) return f.kind;
  return SourceKind::Unknown;
}

}  // namespace

const std::vector<SourceFormat>& source_formats() {
  static const std::vector<SourceFormat> formats = {
      {SourceKind::ExportedProgram, "Exported programs", {".pt2"}, "", is_zip, nullptr, open_archive},
      {SourceKind::ModelLibrary, "Model libraries", {".so", ".dylib", ".dll"}, "", is_binary, nullptr, open_library},
      {SourceKind::BuiltinExample, "Built-in examples", {}, kExampleScheme, nullptr, nullptr, open_example},
      {SourceKind::Capture, "Captures of Python exports", {"manifest.json"}, "", nullptr, capture::is_capture,
       open_capture},
      {SourceKind::TraceLog, "torch trace logs", {".log"}, "", nullptr, capture::is_trace_log, open_trace_log},
  };
  return formats;
}

SourceKind match_source(const std::filesystem::path& path) {
  // Formats told by what they hold first: a capture's manifest.json and a
  // folder of logs have no suffix of their own, and a .log may be any log.
  for (const SourceFormat& f : source_formats())
    if (f.matches_path && f.matches_path(path)) return f.kind;
  if (const SourceKind kind = by_name(path); kind != SourceKind::Unknown && kind != SourceKind::Capture &&
                                             kind != SourceKind::TraceLog)
    return kind;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? by_bytes(path) : SourceKind::Unknown;
}

OpenOutcome open_source(const std::string& path, const OpenRequest& request) {
  const SourceFormat* format = format_of(match_source(path));
  if (!format) {
    std::error_code ec;
    throw std::runtime_error(path + (std::filesystem::exists(path, ec)
                                         ? ": not a program source (a .pt2 archive, a model library, example:NAME, "
                                           "a capture folder or a torch trace log)"
                                         : ": no such file"));
  }
  return format->open(path, request);
}

ir::ExportedProgram open_program(const std::string& path, const OpenRequest& request, std::vector<std::string>* notes) {
  OpenOutcome out = open_source(path, request);
  if (notes) *notes = std::move(out.notes);
  if (!out.program)
    throw std::runtime_error(path + ": " + (out.error_type.empty() ? "" : out.error_type + ": ") +
                             out.report.message);
  return std::move(*out.program);
}

std::string dialog_filter(SourceKind kind) {
  const SourceFormat* f = format_of(kind);
  if (!f || f->suffixes.empty()) return "All files (*)";
  std::string patterns;
  for (const std::string& suffix : f->suffixes) patterns += (patterns.empty() ? "*" : " *") + suffix;
  return f->description + " (" + patterns + ")";
}

}  // namespace exportlens::sources

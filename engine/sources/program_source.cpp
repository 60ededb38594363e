#include "engine/sources/program_source.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <stdexcept>

#include "engine/trace/gallery/gallery_models.h"

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

OpenOutcome open_archive(const std::string& path, const OpenRequest& request) {
  OpenOutcome out;
  out.program = serde::read_pt2(path, "", request.read);
  return out;
}

OpenOutcome open_library(const std::string& path, const OpenRequest& request) {
  return trace::trace_library_model(path, request.model, request.trace);
}

OpenOutcome open_example(const std::string& path, const OpenRequest& request) {
  return trace::trace_gallery_model(path.substr(std::string(kExampleScheme).size()), request.trace);
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
      {SourceKind::ExportedProgram, "Exported programs", {".pt2"}, "", is_zip, open_archive},
      {SourceKind::ModelLibrary, "Model libraries", {".so", ".dylib", ".dll"}, "", is_binary, open_library},
      {SourceKind::BuiltinExample, "Built-in examples", {}, kExampleScheme, nullptr, open_example},
  };
  return formats;
}

SourceKind match_source(const std::filesystem::path& path) {
  if (const SourceKind kind = by_name(path); kind != SourceKind::Unknown) return kind;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? by_bytes(path) : SourceKind::Unknown;
}

OpenOutcome open_source(const std::string& path, const OpenRequest& request) {
  const SourceFormat* format = format_of(match_source(path));
  if (!format) {
    std::error_code ec;
    throw std::runtime_error(path + (std::filesystem::exists(path, ec)
                                         ? ": not a program source (a .pt2 archive, a model library or example:NAME)"
                                         : ": no such file"));
  }
  return format->open(path, request);
}

ir::ExportedProgram open_program(const std::string& path, const OpenRequest& request) {
  OpenOutcome out = open_source(path, request);
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

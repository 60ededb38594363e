#include "engine/sources/program_source.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>

namespace exportlens::sources {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

SourceKind by_suffix(const std::filesystem::path& path) {
  const std::string name = lower(path.filename().string());
  for (const SourceFormat& f : source_formats())
    for (const std::string& suffix : f.suffixes)
      if (name.size() > suffix.size() && name.ends_with(suffix)) return f.kind;
  return SourceKind::Unknown;
}

SourceKind by_magic(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 4> m{};
  if (!in.read(reinterpret_cast<char*>(m.data()), m.size())) return SourceKind::Unknown;
  if (m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4) return SourceKind::ExportedProgram;  // a zip archive
  const bool elf = m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
  const bool macho = (m[0] == 0xcf || m[0] == 0xce) && m[1] == 0xfa && m[2] == 0xed && m[3] == 0xfe;
  const bool pe = m[0] == 'M' && m[1] == 'Z';
  return elf || macho || pe ? SourceKind::ModelLibrary : SourceKind::Unknown;
}

}  // namespace

const std::vector<SourceFormat>& source_formats() {
  static const std::vector<SourceFormat> formats = {
      {SourceKind::ExportedProgram, "Exported programs", {".pt2"}},
      {SourceKind::ModelLibrary, "Model libraries", {".so", ".dylib", ".dll"}},
  };
  return formats;
}

SourceKind match_source(const std::filesystem::path& path) {
  if (const SourceKind kind = by_suffix(path); kind != SourceKind::Unknown) return kind;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? by_magic(path) : SourceKind::Unknown;
}

std::string dialog_filter(SourceKind kind) {
  for (const SourceFormat& f : source_formats()) {
    if (f.kind != kind) continue;
    std::string patterns;
    for (const std::string& suffix : f.suffixes) patterns += (patterns.empty() ? "*" : " *") + suffix;
    return f.description + " (" + patterns + ")";
  }
  return "All files (*)";
}

}  // namespace exportlens::sources

#include "engine/compiled/archive_contents.h"

#include <algorithm>
#include <map>

#include "engine/base/error.h"
#include "engine/compiled/kernel_provenance.h"
#include "engine/compiled/wrapper_source.h"
#include "engine/serde/archive_layout.h"
#include "engine/serde/json_document.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::compiled {
namespace {

using serde::ZipArchive;

constexpr std::string_view kCompiledDir = "data/aotinductor/";

// What a compiled model's file is, by its name.
std::string role_of(std::string_view name) {
  if (name.ends_with(".wrapper.cpp")) return "wrapper";
  if (name.ends_with("kernel_information.json")) return "provenance";
  if (name.ends_with("_metadata.json")) return "metadata";
  if (name.ends_with(".so") || name.ends_with(".dll") || name.ends_with(".dylib")) return "library";
  if (name.ends_with(".cpp") || name.ends_with(".py") || name.ends_with(".cu") || name.ends_with(".ptx") ||
      name.ends_with(".h"))
    return "kernel";
  if (name.ends_with(".bin") || name.ends_with(".cubin") || name.ends_with(".o") || name.find("weights") != std::string_view::npos)
    return "weights";
  return "other";
}

// The text of an entry the reader parses, bounded by the source limit.
std::string read_text_entry(const ZipArchive& zip, const std::string& entry, const serde::ReadLimits& limits) {
  const auto* e = zip.find(entry);
  if (e && e->uncompressed_size > limits.max_source_bytes)
    throw Error(ErrorKind::Limit, {.file = zip.path().string(), .entry = entry},
                "source of " + std::to_string(e->uncompressed_size) + " bytes is over the source-bytes limit of " +
                    std::to_string(limits.max_source_bytes) + " (--limit source-bytes=N raises it)");
  return zip.read_text(entry);
}

// wrapper_metadata.json: a flat object of strings; anything else is a note.
void read_metadata(std::string_view text, const std::string& entry, const serde::ReadLimits& limits, CompiledModel& m) {
  using serde::JsonDocument;
  using serde::JsonType;
  try {
    const JsonDocument doc = JsonDocument::parse(text, entry, limits);
    if (doc.type(0) != JsonType::Object) {
      m.notes.push_back(entry + ": not a JSON object (metadata left out)");
      return;
    }
    for (auto key = JsonDocument::Index(1); key < doc.skip(0); key = doc.skip(key + 1)) {
      const auto value = key + 1;
      if (doc.type(value) == JsonType::String) m.metadata[std::string(doc.string(key))] = std::string(doc.string(value));
      else if (doc.type(value) == JsonType::Integer)
        m.metadata[std::string(doc.string(key))] = std::to_string(doc.integer(value));
      else m.notes.push_back(entry + ": " + std::string(doc.string(key)) + " is not a string (left out)");
    }
  } catch (const std::exception& e) {
    m.notes.push_back(std::string(e.what()) + " (metadata left out)");
  }
}

CompiledModel read_compiled_model(const ZipArchive& zip, const std::string& folder, const std::string& name,
                                  const serde::ReadLimits& limits) {
  CompiledModel m;
  m.name = name;
  m.folder = folder;
  for (const auto& e : zip.entries()) {
    if (!e.name.starts_with(folder) || e.name.size() == folder.size()) continue;
    m.files.push_back({e.name, role_of(e.name), e.uncompressed_size});
  }
  // The wrapper first (launch order), then kernel sources (definitions), then provenance (nodes).
  std::vector<const SourceFile*> wrappers, metadata;
  for (const SourceFile& f : m.files) {
    if (f.role == "wrapper") wrappers.push_back(&f);
    if (f.role == "metadata") metadata.push_back(&f);
  }
  if (wrappers.size() > 1) m.notes.push_back(std::to_string(wrappers.size()) + " wrapper sources; the first is read");
  if (!wrappers.empty()) read_wrapper_source(read_text_entry(zip, wrappers.front()->entry, limits), wrappers.front()->entry, m);
  else m.notes.push_back("no wrapper source (*.wrapper.cpp): inputs, outputs, constants and launches unknown");
  for (const SourceFile& f : m.files)
    if (f.role == "kernel") read_kernel_source(read_text_entry(zip, f.entry, limits), f.entry, m);
  for (const SourceFile* f : metadata)
    if (f->entry.ends_with("wrapper_metadata.json") || metadata.size() == 1)
      read_metadata(read_text_entry(zip, f->entry, limits), f->entry, limits, m);
  for (const SourceFile& f : m.files)
    if (f.role == "provenance") read_kernel_provenance(read_text_entry(zip, f.entry, limits), f.entry, limits, m);
  for (const SourceFile& f : m.files)
    if (f.role == "weights") m.constants_in_library = false;
  if (const auto it = m.metadata.find("AOTI_DEVICE_KEY"); it != m.metadata.end()) m.device = it->second;
  if (m.libraries().empty()) m.notes.push_back("no shared library: the compiled model cannot run");
  return m;
}

std::string plural(size_t n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

}  // namespace

std::string ArchiveContents::kind() const {
  if (compiled.empty()) return programs.size() == 1 ? "exported program" : plural(programs.size(), "exported program");
  if (programs.empty()) return "AOTInductor package with " + plural(compiled.size(), "compiled model");
  return plural(programs.size(), "exported program") + " and " + plural(compiled.size(), "compiled model");
}

const CompiledModel* ArchiveContents::compiled_model(const std::string& name) const {
  for (const CompiledModel& m : compiled)
    if (m.name == name) return &m;
  return nullptr;
}

std::string ArchiveContents::program_of(const CompiledModel& model) const {
  return std::find(programs.begin(), programs.end(), model.name) != programs.end() ? model.name : std::string();
}

ArchiveContents read_archive_contents(const std::filesystem::path& path, const serde::ReadLimits& limits) {
  try {
    const ZipArchive zip(path, limits);
    ArchiveContents out;
    out.path = path;
    out.folder = serde::archive_folder(zip);
    if (out.folder.empty()) {
      // torch <= 2.7: one program, serialized_exported_program.json at the top or under one folder.
      for (const auto& e : zip.entries())
        if (e.name.ends_with("serialized_exported_program.json")) {
          out.flat = true;
          out.programs = {"model"};
          return out;
        }
      throw Error(ErrorKind::Input, {.file = path.string()},
                  "not a PT2 archive (no archive_format entry; was it written by torch.export.save or "
                  "aoti_compile_and_package?)");
    }
    if (const std::string format = zip.read_text(out.folder + "archive_format"); format.rfind("pt2", 0) != 0)
      throw Error(ErrorKind::Input, {.file = path.string(), .entry = out.folder + "archive_format"},
                  "archive_format is '" + format.substr(0, 40) + "', expected 'pt2'");
    if (zip.contains(out.folder + "archive_version")) {
      out.archive_version = zip.read_text(out.folder + "archive_version").substr(0, 40);
      while (!out.archive_version.empty() && std::isspace(static_cast<unsigned char>(out.archive_version.back())))
        out.archive_version.pop_back();
    }
    out.programs = serde::archive_programs(zip, out.folder);
    const std::string compiled = out.folder + std::string(kCompiledDir);
    std::vector<std::string> compiled_names;
    for (const auto& e : zip.entries()) {
      if (e.name.starts_with(compiled)) {
        const auto slash = e.name.find('/', compiled.size());
        if (slash == std::string::npos || slash == compiled.size()) continue;
        const std::string name = e.name.substr(compiled.size(), slash - compiled.size());
        if (std::find(compiled_names.begin(), compiled_names.end(), name) == compiled_names.end())
          compiled_names.push_back(name);
      }
    }
    for (const std::string& name : compiled_names)
      out.compiled.push_back(read_compiled_model(zip, compiled + name + "/", name, limits));
    if (out.programs.empty() && out.compiled.empty())
      throw Error(ErrorKind::Input, {.file = path.string()},
                  "the archive holds no exported program (models/*.json) and no compiled model "
                  "(data/aotinductor/*/)");
    return out;
  } catch (const serde::ArchiveError& e) {
    throw Error(ErrorKind::Input, {}, e.what());
  } catch (const serde::Pt2Error& e) {
    throw Error(ErrorKind::Input, {}, e.what());
  }
}

std::string read_source(const std::filesystem::path& archive, const std::string& entry, const serde::ReadLimits& limits) {
  try {
    const ZipArchive zip(archive, limits);
    if (!zip.contains(entry))
      throw Error(ErrorKind::Usage, {.file = archive.string()}, "no entry '" + entry + "' in the archive");
    return read_text_entry(zip, entry, limits);
  } catch (const serde::ArchiveError& e) {
    throw Error(ErrorKind::Input, {}, e.what());
  }
}

}  // namespace exportlens::compiled

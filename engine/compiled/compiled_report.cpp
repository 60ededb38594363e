#include "engine/compiled/compiled_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace exportlens::compiled {
namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + (shape[i] < 0 ? std::string("s") : std::to_string(shape[i]));
  return s + "]";
}

// The entry's file name, without the archive folders.
std::string file_name(const std::string& entry) { return entry.substr(entry.rfind('/') + 1); }

std::string metadata_or(const CompiledModel& m, const std::string& key) {
  const auto it = m.metadata.find(key);
  return it == m.metadata.end() ? std::string() : it->second;
}

}  // namespace

std::string byte_size(uint64_t bytes) {
  std::ostringstream s;
  s.precision(3);
  if (bytes >= (uint64_t(1) << 30)) s << double(bytes) / double(uint64_t(1) << 30) << " GB";
  else if (bytes >= (1u << 20)) s << double(bytes) / double(1u << 20) << " MB";
  else if (bytes >= 1024) s << double(bytes) / 1024.0 << " KB";
  else s << bytes << " B";
  return s.str();
}

std::string archive_text(const ArchiveContents& c, const std::string& selected) {
  std::ostringstream o;
  o << "archive: " << c.kind();
  if (!c.archive_version.empty()) o << " (archive version " << c.archive_version << ")";
  o << "\n";
  if (!c.programs.empty()) {
    o << "  programs:";
    for (const auto& p : c.programs) o << " " << p << (p == selected ? " (shown)" : "");
    o << "\n";
  }
  for (const CompiledModel& m : c.compiled) {
    o << "  compiled model '" << m.name << "': " << (m.device.empty() ? "device unknown" : m.device);
    std::vector<std::string> target;
    for (const char* key : {"AOTI_PLATFORM", "AOTI_MACHINE", "AOTI_CPU_ISA", "AOTI_COMPUTE_CAPABILITY"})
      if (const std::string v = metadata_or(m, key); !v.empty()) target.push_back(v);
    if (!target.empty()) o << " (" << join(target, " ") << ")";
    if (const std::string p = c.program_of(m); !p.empty()) o << ", compiled from program '" << p << "'";
    o << "\n";
    o << "    inputs: " << (m.inputs.empty() ? "?" : join(m.inputs)) << "; outputs: "
      << (m.outputs.empty() ? "?" : join(m.outputs)) << "\n";
    uint64_t constant_bytes = 0;
    for (const auto& k : m.constants) constant_bytes += k.data_size;
    o << "    constants: " << m.constants.size() << " (" << byte_size(constant_bytes) << ", "
      << (m.constants_in_library ? "in the library" : "beside it") << ")\n";
    for (const auto& k : m.constants)
      o << "      " << k.name << (k.original_fqn.empty() ? "" : " = " + k.original_fqn) << ": " << k.dtype
        << shape_text(k.shape) << " " << k.type << (k.from_folded ? " (folded)" : "") << "\n";
    int mapped = 0;
    for (const auto& k : m.kernels) mapped += !k.nodes.empty();
    o << "    kernels: " << m.kernels.size() << " launches, " << mapped << " with source nodes"
      << (m.has_provenance ? " (provenance)" : " (no provenance: source comments only)") << "\n";
    o << "    files:\n";
    for (const SourceFile& f : m.files)
      o << "      " << f.role << "  " << file_name(f.entry) << "  " << byte_size(f.size)
        << (f.role == "library" ? "  (not loaded)" : "") << "\n";
    for (const auto& n : m.notes) o << "    note: " << n << "\n";
  }
  return o.str();
}

std::string kernels_text(const CompiledModel& m, const KernelMap* map) {
  std::ostringstream o;
  o << "compiled model '" << m.name << "': " << m.kernels.size() << " kernel launches";
  if (map) o << "; " << map->summary(m);
  o << "\n";
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const Kernel& k = m.kernels[i];
    o << "  " << (k.handle.empty() ? k.name : k.handle);
    if (k.wrapper_line) o << "  launched at " << file_name(k.wrapper_entry) << ":" << k.wrapper_line;
    if (k.definition_line) o << ", defined at " << file_name(k.defined_in) << ":" << k.definition_line;
    o << "\n    nodes: ";
    if (k.nodes.empty()) o << "(unknown)";
    for (size_t n = 0; n < k.nodes.size(); ++n) {
      const bool missing = map && std::find(map->nodes_of_kernel[i].begin(), map->nodes_of_kernel[i].end(),
                                            k.nodes[n]) == map->nodes_of_kernel[i].end();
      o << (n ? ", " : "") << k.nodes[n] << (missing ? "?" : "");
    }
    if (!k.mapped_by.empty()) o << "  (" << k.mapped_by << ")";
    o << "\n";
  }
  if (map && !map->unknown_nodes.empty())
    o << "names not in the program (marked ?): " << join(map->unknown_nodes) << "\n";
  return o.str();
}

std::string contents_json(const ArchiveContents& c, const CompiledModel* only, const KernelMap* map) {
  nlohmann::json j;
  j["path"] = c.path.string();
  j["kind"] = c.kind();
  j["archive_version"] = c.archive_version;
  j["programs"] = c.programs;
  j["compiled_models"] = nlohmann::json::array();
  for (const CompiledModel& m : c.compiled) {
    if (only && only->name != m.name) continue;
    nlohmann::json jm;
    jm["name"] = m.name;
    jm["device"] = m.device;
    jm["metadata"] = m.metadata;
    jm["program"] = c.program_of(m);
    jm["inputs"] = m.inputs;
    jm["outputs"] = m.outputs;
    jm["in_spec"] = m.in_spec;
    jm["out_spec"] = m.out_spec;
    jm["has_provenance"] = m.has_provenance;
    jm["constants_in_library"] = m.constants_in_library;
    jm["notes"] = m.notes;
    for (const auto& k : m.constants)
      jm["constants"].push_back({{"name", k.name}, {"original_fqn", k.original_fqn}, {"dtype", k.dtype},
                                 {"type", k.type}, {"shape", k.shape}, {"stride", k.stride},
                                 {"data_size", k.data_size}, {"from_folded", k.from_folded}});
    for (const auto& f : m.files) jm["files"].push_back({{"entry", f.entry}, {"role", f.role}, {"size", f.size}});
    jm["kernels"] = nlohmann::json::array();
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      const Kernel& k = m.kernels[i];
      nlohmann::json jk = {{"name", k.name},           {"handle", k.handle},
                           {"nodes", k.nodes},         {"post_grad_nodes", k.post_grad_nodes},
                           {"stack_traces", k.stack_traces}, {"mapped_by", k.mapped_by},
                           {"wrapper_entry", k.wrapper_entry}, {"wrapper_line", k.wrapper_line},
                           {"defined_in", k.defined_in}, {"definition_line", k.definition_line}};
      if (map && &m == only) jk["nodes_in_program"] = map->nodes_of_kernel[i];
      jm["kernels"].push_back(std::move(jk));
    }
    j["compiled_models"].push_back(std::move(jm));
  }
  return j.dump(1);
}

}  // namespace exportlens::compiled

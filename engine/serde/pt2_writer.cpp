// The archive as torch/export/pt2_archive/_package.py's package_pt2 lays it
// out under one top folder (the file's stem, as PyTorchFileWriter names it):
//   data/weights/weight_<i>, data/weights/model_weights_config.json,
//   data/constants/tensor_<i>, data/constants/model_constants_config.json,
//   models/model.json, data/sample_inputs/model.pt,
//   archive_format ("pt2"), archive_version ("0"), .data/version, byteorder.
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "engine/serde/pt2_writer.h"
#include "engine/serde/recorded_op_schemas.h"
#include "engine/serde/tensor_meta_json.h"
#include "engine/serde/zip_writer.h"

namespace exportlens::serde {
namespace {

using json = nlohmann::ordered_json;
using Payloads = std::vector<std::pair<std::string, ir::TensorPayload>>;

// Writes one payload group (weights or constants) and returns its config.
// Entries holding the same bytes (aliasing weights, as read) share a file;
// the raw bytes are the storage, each entry's tensor_meta its view.
std::string write_payloads(ZipWriter& zip, const std::string& dir, const std::string& prefix, const Payloads& items,
                           const char* what, const WriteOptions& options) {
  json config = json::object();
  // Keyed by the bytes themselves, held: a payload read on demand
  // (missing_payloads) lives only for its iteration, and the next one's bytes
  // may take its address; holding them, no two payloads ever share a key
  // unless they share their bytes.
  std::map<std::shared_ptr<const std::vector<std::byte>>, std::string> files;
  int index = 0;
  for (const auto& [key, held] : items) {
    const ir::TensorPayload* found = held.bytes || !options.missing_payloads ? &held : options.missing_payloads(key);
    if (!found || !found->bytes)
      throw Pt2WriteError(std::string(what) + " '" + key +
                          "' has no data (the program was opened without its weights)");
    const ir::TensorPayload& p = *found;
    std::string& file = files[p.bytes];
    if (file.empty()) {
      file = prefix + std::to_string(index++);
      zip.add(dir + file, std::span<const std::byte>(*p.bytes));
    }
    json meta = json::object();
    meta["path_name"] = file;
    meta["is_param"] = p.is_parameter;
    meta["use_pickle"] = false;
    meta["tensor_meta"] = tensor_meta_json(p.meta);
    config[key] = std::move(meta);
  }
  return json{{"config", std::move(config)}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// PyTorchFileReader wants a serialization id; torch writes a random one,
// ExportLens one derived from the program, so equal programs give equal files.
std::string serialization_id(const std::string& program) {
  uint64_t a = 1469598103934665603ull, b = 1099511628211ull;
  for (unsigned char c : program) {
    a = (a ^ c) * 1099511628211ull;
    b = (b + c) * 6364136223846793005ull + 1442695040888963407ull;
  }
  std::string id = std::to_string(a) + std::to_string(b);
  while (id.size() < 40) id += '0';
  return id.substr(0, 40);
}

std::string archive_root(const std::filesystem::path& path) {
  std::string stem = path.stem().string();
  for (char& c : stem)
    if (c == '/' || c == '\\') c = '_';
  return stem.empty() ? "archive" : stem;
}

}  // namespace

void write_pt2(const ir::ExportedProgram& ep, const std::filesystem::path& path, const WriteOptions& options) {
  // The JSON first: a program that cannot be written fails before any file exists.
  const std::string model = ep.name.empty() ? "model" : ep.name;
  const std::string program = program_json(ep, options);
  const std::string root = archive_root(path) + "/";
  ZipWriter zip(path);
  const std::string weights_config =
      write_payloads(zip, root + "data/weights/", "weight_", ep.state_dict, "weight", options);
  zip.add(root + "data/weights/" + model + "_weights_config.json", weights_config);
  const std::string constants_config =
      write_payloads(zip, root + "data/constants/", "tensor_", ep.constants, "constant", options);
  zip.add(root + "data/constants/" + model + "_constants_config.json", constants_config);
  zip.add(root + "models/" + model + ".json", program);
  // Empty when unknown: torch.export.load then sets ep.example_inputs to None.
  static const std::vector<std::byte> kNone;
  const auto& examples = ep.example_inputs ? ep.example_inputs : options.example_inputs;
  zip.add(root + "data/sample_inputs/" + model + ".pt", std::span<const std::byte>(examples ? *examples : kNone));
  if (const std::string schemas = recorded_op_schemas_json(ep); !schemas.empty())
    zip.add(root + "extra/" + std::string(kOpSchemasEntry), schemas);
  zip.add(root + "archive_format", std::string_view("pt2"));
  zip.add(root + "archive_version", std::string_view("0"));
  zip.add(root + ".data/version", std::string_view("6\n"));
  zip.add(root + "byteorder", std::string_view("little"));
  zip.add(root + ".data/serialization_id", serialization_id(program));
  zip.finish();
}

}  // namespace exportlens::serde

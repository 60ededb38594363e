// The .pt2 archive layout (torch/export/pt2_archive): one top folder holding
//   archive_format ("pt2"), models/<name>.json, data/weights/<name>_weights_config.json
//   + weight files, data/constants/<name>_constants_config.json + constant files,
//   data/sample_inputs/<name>.pt (torch.save of the example inputs).
// Older releases: torch 2.8 kept that layout but stored the weights as one
// torch.save'd dict (data/weights/<name>.pt, data/constants/<name>.pt), and
// torch <= 2.7 wrote a flat zip: serialized_exported_program.json,
// serialized_state_dict.pt, serialized_constants.pt,
// serialized_example_inputs.pt and a version entry.
#include "engine/serde/pt2_reader.h"

#include <map>
#include <optional>
#include <set>

#include "engine/ir/verifier.h"
#include "engine/serde/archive_layout.h"
#include "engine/serde/archive_weights.h"
#include "engine/serde/json_cursor.h"
#include "engine/serde/json_document.h"
#include "engine/serde/pickled_payloads.h"
#include "engine/serde/recorded_op_schemas.h"
#include "engine/serde/tensor_meta_reader.h"
#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::serde {

namespace {

struct Layout {
  std::string prefix;  // "dm/" — the archive's top folder
  std::vector<std::string> models;
  bool flat = false;   // torch <= 2.7's serialized_exported_program.json archive
};

constexpr const char* kFlatProgram = "serialized_exported_program.json";

// torch <= 2.7: the entries at the top level, or under one folder.
std::optional<Layout> find_flat_layout(const ZipArchive& zip) {
  for (const auto& e : zip.entries()) {
    if (!e.name.ends_with(kFlatProgram)) continue;
    const std::string prefix = e.name.substr(0, e.name.size() - std::string_view(kFlatProgram).size());
    if (!prefix.empty() && (prefix.back() != '/' || prefix.find('/') != prefix.size() - 1)) continue;
    Layout layout;
    layout.prefix = prefix;
    layout.models = {"model"};
    layout.flat = true;
    return layout;
  }
  return std::nullopt;
}

Layout find_layout(const ZipArchive& zip) {
  Layout layout;
  layout.prefix = archive_folder(zip);
  if (layout.prefix.empty()) {
    if (auto flat = find_flat_layout(zip)) return *flat;
    throw Pt2Error(zip.path().string() +
                   ": not a torch.export archive (no archive_format entry; was it written by torch.export.save?)");
  }
  const auto format = zip.read_text(layout.prefix + "archive_format");
  if (format.rfind("pt2", 0) != 0)
    throw Pt2Error(zip.path().string() + ": archive_format is '" + format + "', expected 'pt2'");
  layout.models = archive_programs(zip, layout.prefix);
  if (layout.models.empty())
    throw Pt2Error(zip.path().string() + ": the archive holds no exported program (models/*.json)");
  return layout;
}

using PayloadList = std::vector<std::pair<std::string, ir::TensorPayload>>;

// Reads a payload config and its files; entries sharing a file share bytes.
// Without `options.load_weights` the files are checked to exist, not read:
// each payload gets a source that reads its entry when it is needed. A
// pickled entry becomes a raw payload over its pickled storage (pickled_payloads.h).
PayloadList read_payloads(const ZipArchive& zip, const std::string& dir, const std::string& config_name,
                          const char* noun, const ReadOptions& options,
                          const std::shared_ptr<ArchiveWeights>& on_demand) {
  PayloadList out;
  const std::string config_path = dir + config_name;
  if (!zip.contains(config_path)) return out;
  const std::string text = zip.read_text(config_path);
  const auto doc = JsonDocument::parse(text, zip.path().string() + ": " + config_path, options.limits);
  std::map<std::string, std::shared_ptr<const std::vector<std::byte>>> files;
  std::set<std::string> checked;
  const JsonCursor root(doc, config_path);
  const auto config = root.at("config");
  config.expect_object();
  TensorMetaReader metas;
  for (const auto& [key_view, item] : config.members()) {
    const std::string key(key_view);
    ir::TensorPayload p;
    const auto file = item.at("path_name").str();
    const bool pickled = item.has("use_pickle") && item.at("use_pickle").boolean();
    if (item.has("is_param")) p.is_parameter = item.at("is_param").boolean();
    if (item.has("tensor_meta")) p.meta = metas.read(item.at("tensor_meta"));
    if (!zip.contains(dir + file))
      throw Pt2Error(zip.path().string() + ": " + noun + " '" + key + "' is missing: no entry " + dir + file);
    const std::string what = zip.path().string() + ": " + noun + " '" + key + "'";
    if (options.load_weights) {
      auto& bytes = files[file];
      if (!bytes) bytes = std::make_shared<const std::vector<std::byte>>(zip.read(dir + file));
      if (pickled) {
        p = pickled_payload(torch_load(bytes, what, options.limits), p, what);
        p.bytes = p.data();
      } else {
        p.bytes = bytes;
        p.stored_size = bytes->size();
      }
    } else {
      // Not read, but refused now if reading it would be (sizes, limits, a bomb, past the end).
      if (checked.insert(file).second) zip.check_entry(dir + file);
      if (pickled) {
        p.source = pickled_entry_source(on_demand, dir + file, p, what, options.limits);
      } else {
        p.source = on_demand->source(dir + file);
        p.stored_size = zip.find(dir + file)->uncompressed_size;
      }
    }
    out.emplace_back(key, std::move(p));
  }
  return out;
}

// torch <= 2.8's weights: one torch.save'd dict for all of them, read and
// unpickled now (its storages are read when asked). Each parameter, buffer or
// constant the signature names is the dict's tensor under its key, with the
// metadata of its placeholder.
PayloadList read_pickled_dict(const ZipArchive& zip, const std::string& entry, const ir::ExportedProgram& ep,
                              bool constants, const ReadOptions& options) {
  PayloadList out;
  if (!zip.contains(entry)) return out;
  const auto bytes = std::make_shared<const std::vector<std::byte>>(zip.read(entry));
  const std::string label = zip.path().string() + ": " + entry.substr(entry.rfind('/') + 1);
  const SaveValue dict = torch_load(bytes, label, options.limits);
  const auto* items = std::get_if<std::shared_ptr<SaveValue::Dict>>(&dict.v);
  if (!items) throw Pt2Error(label + ": the weights file is not a dict");
  std::map<std::string_view, const SaveValue*> by_key;
  std::map<const ir::PayloadSource*, std::shared_ptr<const std::vector<std::byte>>> storages;  // aliasing weights share them
  for (const auto& [k, v] : (*items)->items) by_key[k] = &v;
  for (const auto& spec : ep.signature.inputs) {
    const bool wanted = constants ? spec.kind == ir::InputKind::ConstantTensor
                                  : spec.kind == ir::InputKind::Parameter || spec.kind == ir::InputKind::Buffer;
    if (!wanted || !spec.target) continue;
    const std::string what = std::string(constants ? "constant" : "weight") + " '" + *spec.target + "'";
    const auto it = by_key.find(*spec.target);
    if (it == by_key.end()) throw Pt2Error(label + ": " + what + " is missing from the weights file");
    ir::TensorPayload declared;
    if (const ir::Node* n = ep.graph().find(spec.arg.name); n && n->value.tensor()) declared.meta = *n->value.tensor();
    declared.is_parameter = spec.kind == ir::InputKind::Parameter;
    ir::TensorPayload p = pickled_payload(*it->second, declared, label + ": " + what);
    if (options.load_weights && p.source) {
      auto& bytes = storages[p.source.get()];
      if (!bytes) bytes = p.data();
      p.bytes = bytes;
    }
    out.emplace_back(*spec.target, std::move(p));
  }
  return out;
}

}  // namespace

Pt2Contents list_pt2(const std::filesystem::path& path) {
  try {
    ZipArchive zip(path);
    return {find_layout(zip).models};
  } catch (const ArchiveError& e) {
    throw Pt2Error(e.what());
  }
}

namespace {

ir::ExportedProgram read_archive(const std::filesystem::path& path, const std::string& model_name,
                               const ReadOptions& options) {
  // Kept open after reading when the weights are read on demand.
  auto archive = std::make_shared<ZipArchive>(path, options.limits);
  const ZipArchive& zip = *archive;
  const Layout layout = find_layout(zip);
  std::string model = model_name;
  if (model.empty()) {
    const bool has_default = std::find(layout.models.begin(), layout.models.end(), "model") != layout.models.end();
    model = has_default ? "model" : layout.models.front();
  } else if (std::find(layout.models.begin(), layout.models.end(), model) == layout.models.end()) {
    throw Pt2Error(path.string() + ": no program named '" + model + "' in the archive");
  }
  const std::string json_entry = layout.flat ? layout.prefix + kFlatProgram : layout.prefix + "models/" + model + ".json";
  ir::ExportedProgram ep = parse_program_json(
      zip.read_text(json_entry), path.string() + ": " + json_entry.substr(layout.prefix.size()), options.limits,
      options.signatures);
  ep.name = model;
  if (const std::string schemas = layout.prefix + "extra/" + std::string(kOpSchemasEntry);
      !layout.flat && zip.contains(schemas))
    read_recorded_op_schemas(zip.read_text(schemas), path.string() + ": " + schemas.substr(layout.prefix.size()),
                             options.limits, ep);
  try {
    const auto on_demand = options.load_weights ? nullptr : std::make_shared<ArchiveWeights>(archive);
    const std::string weights = layout.prefix + "data/weights/", constants = layout.prefix + "data/constants/";
    if (layout.flat) {
      ep.state_dict = read_pickled_dict(zip, layout.prefix + "serialized_state_dict.pt", ep, false, options);
      ep.constants = read_pickled_dict(zip, layout.prefix + "serialized_constants.pt", ep, true, options);
    } else if (!zip.contains(weights + model + "_weights_config.json") && zip.contains(weights + model + ".pt")) {
      ep.state_dict = read_pickled_dict(zip, weights + model + ".pt", ep, false, options);
      ep.constants = read_pickled_dict(zip, constants + model + ".pt", ep, true, options);
    } else {
      ep.state_dict = read_payloads(zip, weights, model + "_weights_config.json", "weight", options, on_demand);
      ep.constants = read_payloads(zip, constants, model + "_constants_config.json", "constant", options, on_demand);
    }
    // ep.example_inputs: kept as torch.save bytes, for writing the program
    // back, once our unpickler has read them (empty: torch wrote None).
    const std::string sample_inputs = layout.flat ? layout.prefix + "serialized_example_inputs.pt"
                                                  : layout.prefix + "data/sample_inputs/" + model + ".pt";
    if (options.load_weights && zip.contains(sample_inputs)) {
      ep.example_inputs = std::make_shared<const std::vector<std::byte>>(zip.read(sample_inputs));
      if (!ep.example_inputs->empty())
        torch_load(ep.example_inputs, path.string() + ": example inputs", options.limits);
    }
  } catch (const SchemaError& e) {
    throw Pt2Error(path.string() + ": " + e.what());
  }
  const auto findings = ir::verify(ep);
  if (!findings.empty()) {
    // One line: the first findings, and how many more there are.
    std::string msg = path.string() + ": ill-formed program: ";
    constexpr size_t kShown = 3;
    for (size_t i = 0; i < findings.size() && i < kShown; ++i) msg += (i ? "; " : "") + findings[i].str();
    if (findings.size() > kShown) msg += "; and " + std::to_string(findings.size() - kShown) + " more";
    throw Pt2Error(msg);
  }
  return ep;
}

}  // namespace

ir::ExportedProgram read_pt2(const std::filesystem::path& path, const std::string& model_name,
                             const ReadOptions& options) {
  try {
    return read_archive(path, model_name, options);
  } catch (const ArchiveError& e) {
    throw Pt2Error(e.what());
  } catch (const Pt2Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Pt2Error(path.string() + ": out of memory while reading (a size in the file is larger than this machine can hold)");
  } catch (const std::length_error&) {
    throw Pt2Error(path.string() + ": a size in the file is too large");
  }
}

}  // namespace exportlens::serde

#include "engine/compiled/kernel_provenance.h"

#include <map>

#include "engine/serde/json_document.h"

namespace exportlens::compiled {
namespace {

using serde::JsonDocument;
using serde::JsonType;

// The strings of an array member; false when the member is there but not an array of strings.
bool strings_of(const JsonDocument& doc, JsonDocument::Index object, std::string_view key, std::vector<std::string>& out) {
  const auto i = doc.find(object, key);
  if (i == JsonDocument::kNone) return true;
  if (doc.type(i) != JsonType::Array) return false;
  for (auto e = i + 1; e < doc.skip(i); e = doc.skip(e)) {
    if (doc.type(e) != JsonType::String) return false;
    out.emplace_back(doc.string(e));
  }
  return true;
}

}  // namespace

void read_kernel_provenance(std::string_view text, const std::string& entry, const serde::ReadLimits& limits,
                            CompiledModel& model) {
  JsonDocument doc;
  try {
    doc = JsonDocument::parse(text, entry, limits);
  } catch (const std::exception& e) {
    model.notes.push_back(std::string(e.what()) + " (kernel provenance left out)");
    return;
  }
  if (doc.type(0) != JsonType::Object) {
    model.notes.push_back(entry + ": not a JSON object (kernel provenance left out)");
    return;
  }
  std::map<std::string, size_t> by_handle;
  for (size_t i = 0; i < model.kernels.size(); ++i)
    if (!model.kernels[i].handle.empty()) by_handle.emplace(model.kernels[i].handle, i);
  int left_out = 0;
  for (auto key = JsonDocument::Index(1); key < doc.skip(0); key = doc.skip(key + 1)) {
    const auto value = key + 1;
    const std::string handle(doc.string(key));
    Kernel read;
    const bool ok = doc.type(value) == JsonType::Object && strings_of(doc, value, "pre_grad_nodes", read.nodes) &&
                    strings_of(doc, value, "post_grad_nodes", read.post_grad_nodes) &&
                    strings_of(doc, value, "stack_traces", read.stack_traces);
    if (!ok) {
      ++left_out;
      continue;
    }
    const auto it = by_handle.find(handle);
    Kernel* k = nullptr;
    if (it != by_handle.end()) {
      k = &model.kernels[it->second];
    } else {
      k = &model.kernels.emplace_back();
      k->handle = handle;
      k->name = handle.substr(0, handle.rfind(':'));
    }
    k->nodes = std::move(read.nodes);
    k->post_grad_nodes = std::move(read.post_grad_nodes);
    k->stack_traces = std::move(read.stack_traces);
    k->mapped_by = "provenance";
  }
  if (left_out)
    model.notes.push_back(entry + ": " + std::to_string(left_out) + " kernel" + (left_out == 1 ? "" : "s") +
                          " of another shape left out");
  model.has_provenance = true;
}

}  // namespace exportlens::compiled

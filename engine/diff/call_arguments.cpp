#include "engine/diff/call_arguments.h"

namespace exportlens::diff {

CallSchemas::CallSchemas(const ir::ExportedProgram& a, const ir::ExportedProgram& b, ir::OpSignatureLookup lookup)
    : a_(a.file_signatures), b_(b.file_signatures), lookup_(std::move(lookup)) {}

const ir::OpSignature* CallSchemas::schema(const ir::Node& node) const {
  if (node.op != ir::OpKind::CallFunction || !node.target.is_torch_op()) return nullptr;
  const std::string name = node.target.schema_name();
  if (lookup_) {
    auto it = looked_up_.find(name);
    if (it == looked_up_.end()) it = looked_up_.emplace(name, lookup_(name)).first;
    if (it->second) return &*it->second;
  }
  if (const auto it = a_.find(name); it != a_.end()) return &it->second;
  if (const auto it = b_.find(name); it != b_.end()) return &it->second;
  return nullptr;
}

std::vector<NamedValue> CallSchemas::arguments(const ir::Node& node) const {
  const ir::OpSignature* s = schema(node);
  std::vector<NamedValue> out;
  for (size_t i = 0; i < node.args().size(); ++i) {
    const bool known = s && i < s->arguments.size();
    out.push_back({known ? s->arguments[i].name : "arg " + std::to_string(i), &node.args()[i]});
  }
  for (const auto& k : node.kwargs()) out.push_back({k.name, &k.value});
  return out;
}

const ir::Argument* CallSchemas::default_of(const ir::Node& node, const std::string& name) const {
  const ir::OpSignature* s = schema(node);
  if (!s) return nullptr;
  for (const auto& a : s->arguments)
    if (a.name == name) return a.default_value ? &*a.default_value : nullptr;
  return nullptr;
}

}  // namespace exportlens::diff

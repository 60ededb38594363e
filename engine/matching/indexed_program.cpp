#include "engine/matching/indexed_program.h"

#include "engine/matching/structure_hash.h"

namespace exportlens::matching {
namespace {

// The dtype and rank of a value, tuples item by item; not its sizes.
uint64_t value_kind(const ir::ValueInfo& v) {
  if (const auto* t = v.tensor()) return hash::mix(hash::mix(0x7e, static_cast<uint64_t>(t->dtype)), t->rank());
  if (v.sym_int()) return 0x5171;
  if (v.sym_bool()) return 0x5b01;
  if (std::holds_alternative<ir::SymFloat>(v.v)) return 0x5f10;
  if (const auto* tuple = v.tuple()) {
    uint64_t h = hash::mix(0x70, tuple->size());
    for (const auto& item : *tuple) h = hash::mix(h, value_kind(item));
    return h;
  }
  return 0;
}

std::string call_key(const std::string& path, int call) { return path + "@" + std::to_string(call); }

}  // namespace

IndexedProgram::IndexedProgram(const ir::ExportedProgram& program)
    : IndexedProgram(program, std::make_shared<const ir::ModuleHierarchy>(ir::module_hierarchy(program.graph()))) {}

IndexedProgram::IndexedProgram(const ir::ExportedProgram& program, std::shared_ptr<const ir::ModuleHierarchy> hierarchy)
    : program_(&program), hierarchy_(std::move(hierarchy)), nodes_(program.graph().nodes()) {
  fingerprints_ = fingerprint_scopes(program, *hierarchy_);
  index();
}

void IndexedProgram::index() {
  const size_t n = nodes_.size();
  kind_key_.resize(n);
  for (size_t i = 0; i < n; ++i) kind_key_[i] = hash::mix(fingerprints_.node_identity[i], value_kind(nodes_[i]->value));
  std::unordered_map<std::string_view, const ir::InputSpec*> specs;
  for (const auto& in : program_->signature.inputs) specs.emplace(in.arg.name, &in);
  input_spec_.assign(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    if (nodes_[i]->op != ir::OpKind::Placeholder) continue;
    const auto it = specs.find(nodes_[i]->name);
    if (it == specs.end()) continue;
    input_spec_[i] = it->second;
    if (it->second->target) input_by_target_.emplace(*it->second->target, static_cast<int>(i));
  }
  for (size_t s = 0; s < hierarchy_->size(); ++s) {
    const auto& scope = (*hierarchy_)[static_cast<int>(s)];
    scope_by_call_.emplace(call_key(scope.path, scope.call), static_cast<int>(s));
  }
}

int IndexedProgram::index_of(const ir::Node* node) const {
  const int k = node ? node->index() : -1;
  return k >= 0 && static_cast<size_t>(k) < nodes_.size() && nodes_[static_cast<size_t>(k)] == node ? k : -1;
}

int IndexedProgram::input_for_target(const std::string& target) const {
  const auto it = input_by_target_.find(target);
  return it == input_by_target_.end() ? -1 : it->second;
}

int IndexedProgram::scope_at(const std::string& path, int call) const {
  const auto it = scope_by_call_.find(call_key(path, call));
  return it == scope_by_call_.end() ? -1 : it->second;
}

}  // namespace exportlens::matching

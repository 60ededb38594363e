#include "engine/ir/verifier.h"

#include <set>
#include <string_view>
#include <unordered_set>
#include <stdexcept>

#include "engine/ir/tensor_extent.h"

namespace exportlens::ir {
namespace {

std::string node_where(std::string_view scope, const Node* n) {
  std::string w = "node '" + n->name + "'";
  return scope.empty() ? w : std::string(scope) + "." + w;
}

// Tensor metadata comes from the file: a layout that cannot exist (ranks that
// differ, negative sizes, sizes whose product overflows) is reported here,
// before any reader of sizes or strides trusts it.
void check_value(const ValueInfo& v, const std::string& where, std::vector<VerifierFinding>& out) {
  if (const TensorMeta* t = v.tensor()) {
    if (auto problem = layout_problem(*t)) out.push_back({where, "tensor metadata " + *problem});
  } else if (const ValueTuple* items = v.tuple()) {
    for (size_t i = 0; i < items->size(); ++i) check_value((*items)[i], where + " output " + std::to_string(i), out);
  }
}

void check_order_and_refs(const GraphModule& gm, std::string_view scope,
                          std::vector<VerifierFinding>& out) {
  std::set<const Node*> seen;
  bool past_placeholders = false;
  int outputs = 0;
  const auto nodes = gm.graph.nodes();
  for (const Node* n : nodes) {
    const auto where = node_where(scope, n);
    if (n->op == OpKind::Placeholder && past_placeholders)
      out.push_back({where, "placeholder after non-placeholder nodes"});
    if (n->op != OpKind::Placeholder) past_placeholders = true;
    if (n->op == OpKind::Output) {
      ++outputs;
      if (n != nodes.back()) out.push_back({where, "output node is not the last node"});
    }
    if (n->op == OpKind::CallFunction && n->target.qualified().empty())
      out.push_back({where, "call_function without a target"});
    if (n->op == OpKind::GetAttr && !gm.submodule(n->attr))
      out.push_back({where, "get_attr refers to unknown submodule '" + n->attr + "'"});
    check_value(n->value, where, out);
    n->for_each_input([&](const Node* in) {
      if (!in) {
        out.push_back({where, "argument refers to a missing node"});
      } else if (in->graph() != &gm.graph) {
        out.push_back({where, "argument '" + in->name + "' belongs to another graph"});
      } else if (!seen.count(in)) {
        out.push_back({where, "uses '" + in->name + "' before it is defined"});
      }
    });
    seen.insert(n);
  }
  if (outputs != 1)
    out.push_back({scope.empty() ? "graph" : std::string(scope),
                   "expected exactly one output node, found " + std::to_string(outputs)});
}

// A raw weight's view must lie inside the bytes the archive stores for it.
void check_payloads(const std::vector<std::pair<std::string, TensorPayload>>& payloads, const char* kind,
                    std::vector<VerifierFinding>& out) {
  for (const auto& [key, p] : payloads) {
    const std::string where = std::string(kind) + " '" + key + "'";
    if (auto problem = layout_problem(p.meta)) {
      out.push_back({where, "tensor metadata " + *problem});
      continue;
    }
    // Not loaded (a weight read on demand is checked by its stored size, a
    // pickled one when it is unpickled), or empty: torch writes some lifted
    // constants without data (the runtime fills those with zeros, bounded).
    const uint64_t stored = p.bytes ? p.bytes->size() : p.source ? p.stored_size : 0;
    if (stored == 0) continue;
    const auto extent = storage_extent(p.meta);
    const auto needed = extent ? byte_size(*extent, p.meta.dtype) : std::nullopt;
    if (!needed)
      out.push_back({where, "its sizes and strides have no example values"});
    else if (static_cast<uint64_t>(*needed) > stored)
      out.push_back({where, "its view needs " + std::to_string(*needed) + " bytes but the archive stores " +
                                std::to_string(stored)});
  }
}

void check_signature(const ExportedProgram& ep, std::vector<VerifierFinding>& out) {
  const auto placeholders = ep.graph().placeholders();
  // Looked up once per input: a set, so ten thousand weights stay linear.
  std::unordered_set<std::string_view> state, constants;
  for (const auto& [key, payload] : ep.state_dict) state.insert(key);
  for (const auto& [key, payload] : ep.constants) constants.insert(key);
  const auto has_state = [&](const std::string& key) { return state.count(key) != 0; };
  const auto has_constant = [&](const std::string& key) { return constants.count(key) != 0; };
  const auto& inputs = ep.signature.inputs;
  size_t tensor_like = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& spec = inputs[i];
    const std::string where = "graph signature input " + std::to_string(i) + " ('" + spec.arg.name + "')";
    if (tensor_like >= placeholders.size()) {
      out.push_back({where, "has no matching placeholder"});
    } else if (placeholders[tensor_like]->name != spec.arg.name) {
      out.push_back({where, "names placeholder '" + placeholders[tensor_like]->name + "' in that position"});
    }
    ++tensor_like;
    const bool stateful = spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer;
    if (stateful && (!spec.target || (!has_state(*spec.target) && !has_constant(*spec.target)))) {
      const bool non_persistent = spec.kind == InputKind::Buffer && spec.persistent == false;
      if (!non_persistent || !spec.target || !has_constant(*spec.target))
        out.push_back({where, "weight '" + spec.target.value_or("") + "' is missing from the archive"});
    }
    if (spec.kind == InputKind::ConstantTensor && (!spec.target || !has_constant(*spec.target)))
      out.push_back({where, "constant '" + spec.target.value_or("") + "' is missing from the archive"});
  }
  if (tensor_like < placeholders.size())
    out.push_back({"graph signature", "has " + std::to_string(tensor_like) + " inputs but the graph has " +
                                          std::to_string(placeholders.size()) + " placeholders"});
  if (const Node* o = ep.graph().output(); o && !o->args().empty()) {
    const auto* list = o->args()[0].list();
    const size_t n = list ? list->items.size() : 1;
    if (n != ep.signature.outputs.size())
      out.push_back({"graph signature", "has " + std::to_string(ep.signature.outputs.size()) +
                                            " outputs but the graph returns " + std::to_string(n)});
  }
}

}  // namespace

std::vector<VerifierFinding> verify(const GraphModule& gm, std::string_view scope) {
  std::vector<VerifierFinding> out;
  check_order_and_refs(gm, scope, out);
  for (const auto& [name, sub] : gm.submodules) {
    const std::string sub_scope = scope.empty() ? name : std::string(scope) + "." + name;
    auto more = verify(*sub, sub_scope);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::vector<VerifierFinding> verify(const ExportedProgram& ep) {
  auto out = verify(ep.graph_module);
  check_signature(ep, out);
  check_payloads(ep.state_dict, "weight", out);
  check_payloads(ep.constants, "constant", out);
  return out;
}

void verify_or_throw(const ExportedProgram& ep) {
  const auto findings = verify(ep);
  if (findings.empty()) return;
  std::string msg = "ill-formed program:";
  for (const auto& f : findings) msg += "\n  " + f.str();
  throw std::runtime_error(msg);
}

}  // namespace exportlens::ir

#include "engine/numerics/node_pairing.h"

#include <set>
#include <unordered_map>

namespace exportlens::numerics {
namespace {

bool same_value_kind(const ir::ValueInfo& a, const ir::ValueInfo& b) {
  const ir::TensorMeta* ta = a.tensor();
  const ir::TensorMeta* tb = b.tensor();
  if (ta && tb) return ta->dtype == tb->dtype && ta->sizes == tb->sizes;
  return bool(a.sym_int()) == bool(b.sym_int()) && !ta && !tb;
}

}  // namespace

bool comparable(const ir::Node& node) {
  return node.op == ir::OpKind::CallFunction && (node.value.tensor() || node.value.sym_int());
}

NodePairing same_graph(const ir::ExportedProgram& program) {
  NodePairing p;
  p.basis = "the same graph";
  for (const ir::Node* n : program.graph().nodes())
    if (comparable(*n)) p.pairs.push_back({n->name, n->name});
  return p;
}

NodePairing by_provenance(const ir::ExportedProgram& exported, const ir::ExportedProgram& lowered) {
  // The last lowered node of each exported node's decomposition with its value:
  // the one that stands for it (earlier ones compute parts of it).
  std::unordered_map<std::string, const ir::Node*> last_of;
  for (const ir::Node* m : lowered.graph().nodes()) {
    if (!comparable(*m)) continue;
    const std::string origin = m->meta.provenance.empty() ? m->name : m->meta.provenance.back().node;
    if (const ir::Node* n = exported.graph().find(origin); n && same_value_kind(n->value, m->value)) last_of[origin] = m;
  }
  NodePairing p;
  p.basis = "provenance (B lowered from A)";
  for (const ir::Node* n : exported.graph().nodes()) {
    if (!comparable(*n)) continue;
    if (const auto it = last_of.find(n->name); it != last_of.end())
      p.pairs.push_back({n->name, it->second->name});
    else
      ++p.unpaired;
  }
  return p;
}

namespace {

// "layers.0.attn|aten.linear.default": where a node is and what it does.
std::string module_op(const ir::Node& n) {
  return (n.meta.nn_module_stack.empty() ? std::string() : n.meta.nn_module_stack.back().path) + "|" +
         n.target.qualified();
}

bool same_shape(const ir::ValueInfo& a, const ir::ValueInfo& b) {
  const ir::TensorMeta* ta = a.tensor();
  const ir::TensorMeta* tb = b.tensor();
  if (ta && tb) return ta->sizes == tb->sizes;
  return !ta && !tb && bool(a.sym_int()) == bool(b.sym_int());
}

}  // namespace

NodePairing by_structure(const ir::ExportedProgram& a, const ir::ExportedProgram& b) {
  NodePairing p;
  p.basis = "name, then module path, op and order";
  std::set<const ir::Node*> taken;
  std::unordered_map<std::string, std::vector<const ir::Node*>> b_by_place;
  for (const ir::Node* m : b.graph().nodes())
    if (comparable(*m)) b_by_place[module_op(*m)].push_back(m);
  std::unordered_map<std::string, size_t> next_of_place;
  for (const ir::Node* n : a.graph().nodes()) {
    if (!comparable(*n)) continue;
    const ir::Node* m = b.graph().find(n->name);
    if (!m || !comparable(*m) || m->target != n->target || !same_value_kind(n->value, m->value) || taken.count(m)) {
      m = nullptr;
      const std::string place = module_op(*n);
      const auto candidates = b_by_place.find(place);
      size_t& next = next_of_place[place];
      if (candidates != b_by_place.end())
        while (next < candidates->second.size() && !m) {
          const ir::Node* c = candidates->second[next++];
          if (!taken.count(c) && same_shape(n->value, c->value)) m = c;
        }
    }
    if (!m) {
      ++p.unpaired;
      continue;
    }
    taken.insert(m);
    p.pairs.push_back({n->name, m->name});
  }
  return p;
}

NodePairing by_name(const ir::ExportedProgram& program, const std::vector<std::string>& recorded) {
  const std::set<std::string> names(recorded.begin(), recorded.end());
  NodePairing p;
  p.basis = "node names (recorded values)";
  for (const ir::Node* n : program.graph().nodes()) {
    if (!comparable(*n)) continue;
    if (names.count(n->name)) p.pairs.push_back({n->name, n->name});
    else ++p.unpaired;
  }
  return p;
}

}  // namespace exportlens::numerics

#include "engine/numerics/node_pairing.h"

#include "engine/matching/indexed_program.h"
#include "engine/matching/program_matching.h"

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
  p.a_graph = p.b_graph = &program.graph();
  for (const ir::Node* n : program.graph().nodes())
    if (comparable(*n)) p.pairs.push_back({n->name, n->name, n, n});
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
  p.a_graph = &exported.graph();
  p.b_graph = &lowered.graph();
  for (const ir::Node* n : exported.graph().nodes()) {
    if (!comparable(*n)) continue;
    if (const auto it = last_of.find(n->name); it != last_of.end())
      p.pairs.push_back({n->name, it->second->name, n, it->second});
    else
      ++p.unpaired;
  }
  return p;
}

namespace {

bool same_shape(const ir::ValueInfo& a, const ir::ValueInfo& b) {
  const ir::TensorMeta* ta = a.tensor();
  const ir::TensorMeta* tb = b.tensor();
  if (ta && tb) return ta->sizes == tb->sizes;
  return !ta && !tb && bool(a.sym_int()) == bool(b.sym_int());
}

}  // namespace

NodePairing by_matching(const ir::ExportedProgram& a, const ir::ExportedProgram& b) {
  const matching::IndexedProgram ia(a), ib(b);
  const matching::ProgramMatching m = matching::match_programs(ia, ib);
  NodePairing p;
  p.basis = "the node matching of exportlens diff (module calls, structure, alignment)";
  p.a_graph = &a.graph();
  p.b_graph = &b.graph();
  for (size_t i = 0; i < ia.size(); ++i) {
    const ir::Node* n = ia.nodes()[i];
    if (!comparable(*n)) continue;
    const matching::NodeMatch& match = m.a_to_b[i];
    const ir::Node* other = match.matched() ? ib.nodes()[static_cast<size_t>(match.node)] : nullptr;
    // Only values that can be compared element by element: a widened dim is a change, not an error.
    if (other && comparable(*other) && same_shape(n->value, other->value)) p.pairs.push_back({n->name, other->name, n, other});
    else ++p.unpaired;
  }
  return p;
}

NodePairing by_name(const ir::ExportedProgram& program, const std::vector<std::string>& recorded) {
  const std::set<std::string> names(recorded.begin(), recorded.end());
  NodePairing p;
  p.basis = "node names (recorded values)";
  p.b_graph = &program.graph();
  for (const ir::Node* n : program.graph().nodes()) {
    if (!comparable(*n)) continue;
    if (names.count(n->name)) p.pairs.push_back({n->name, n->name, nullptr, n});
    else ++p.unpaired;
  }
  return p;
}

}  // namespace exportlens::numerics

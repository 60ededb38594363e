// Programs the caller says are related (MatchOptions::related): one of them
// lowered from the other by ExportLens in this process, or both from one
// program (the provenance every pass records is not saved in a .pt2). Each
// node leads back to a node of the program as exported (its origin; a node
// of that program is its own). When most of B's ops lead back to origins A
// has too, the derivation holds: nodes with the same name, op and origin
// pair (the passes keep names they do not change), then for each origin the last of
// its nodes read outside them on each side (what the origin's value became:
// `addmm` for `linear`), then the rest of the origin's nodes by op in order.
#include <unordered_map>

#include "engine/ir/op_key.h"
#include "engine/matching/match_stages.h"

namespace exportlens::matching {
namespace {

constexpr float kSameName = 0.95f, kOriginValue = 1.0f, kOriginSibling = 0.8f;
constexpr double kRelatedShare = 0.5;  // of B's ops leading back to A's origins

std::string origin_key(const ir::Node& n) {
  if (!n.meta.provenance.empty()) return n.meta.provenance.back().node + "\n" + n.meta.provenance.back().target;
  return n.name + "\n" + (n.op == ir::OpKind::CallFunction ? ir::op_key(n.target) : std::string());
}

struct Origins {
  std::unordered_map<std::string, std::vector<int>> nodes;  // origin -> nodes, graph order
  std::vector<std::string> of;                               // by node
  size_t with_provenance = 0;
};

Origins origins(const IndexedProgram& p) {
  Origins o;
  o.of.resize(p.size());
  for (size_t i = 0; i < p.size(); ++i) {
    const ir::Node& n = *p.nodes()[i];
    o.of[i] = origin_key(n);
    o.nodes[o.of[i]].push_back(static_cast<int>(i));
    if (!n.meta.provenance.empty()) ++o.with_provenance;
  }
  return o;
}

// The last node of `group` whose value is read outside it (or by the output).
int value_of_origin(const IndexedProgram& p, const Origins& o, const std::vector<int>& group) {
  for (auto it = group.rbegin(); it != group.rend(); ++it) {
    const ir::Node& n = *p.nodes()[static_cast<size_t>(*it)];
    for (const ir::Node* u : n.users()) {
      const int k = p.index_of(u);
      if (k < 0 || o.of[static_cast<size_t>(k)] != o.of[static_cast<size_t>(*it)]) return *it;
    }
  }
  return group.empty() ? -1 : group.back();
}

Derivation related(const IndexedProgram& a, const IndexedProgram& b, const Origins& oa, const Origins& ob) {
  if (oa.with_provenance == 0 && ob.with_provenance == 0) return Derivation::Independent;
  size_t ops = 0, shared = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    if (b.nodes()[i]->op != ir::OpKind::CallFunction) continue;
    ++ops;
    shared += oa.nodes.count(ob.of[i]);
  }
  if (ops == 0 || static_cast<double>(shared) < kRelatedShare * static_cast<double>(ops)) return Derivation::Independent;
  if (oa.with_provenance == 0) return Derivation::BFromA;
  if (ob.with_provenance == 0) return Derivation::AFromB;
  return Derivation::CommonOrigin;
}

}  // namespace

void match_by_derivation(MatchState& s) {
  const Origins oa = origins(s.a), ob = origins(s.b);
  s.set_derivation(related(s.a, s.b, oa, ob));
  if (s.derivation() == Derivation::Independent) return;

  std::unordered_map<std::string_view, int> b_by_name;
  for (size_t i = 0; i < s.b.size(); ++i) b_by_name.emplace(s.b.nodes()[i]->name, static_cast<int>(i));
  for (size_t i = 0; i < s.a.size(); ++i) {
    const auto it = b_by_name.find(s.a.nodes()[i]->name);
    // The same name, op and origin: a pass renumbers names (`add_2` may now be what `add_1` was).
    if (it != b_by_name.end() && s.a.op_key(static_cast<int>(i)) == s.b.op_key(it->second) &&
        oa.of[i] == ob.of[static_cast<size_t>(it->second)])
      s.pair(static_cast<int>(i), it->second, MatchReason::Name, kSameName);
  }
  for (const auto& [origin, group_a] : oa.nodes) {
    const auto it = ob.nodes.find(origin);
    if (it == ob.nodes.end()) continue;
    s.pair(value_of_origin(s.a, oa, group_a), value_of_origin(s.b, ob, it->second), MatchReason::Provenance, kOriginValue);
    for (int x : group_a)
      for (int y : it->second)
        if (s.a_free(x) && s.b_free(y) && s.a.op_key(x) == s.b.op_key(y))
          s.pair(x, y, MatchReason::Provenance, kOriginSibling);
  }
}

}  // namespace exportlens::matching

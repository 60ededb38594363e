// Nodes of matched module calls. Two calls with the same fingerprint compute
// the same thing the same way: their nodes pair position by position in
// canonical order, nested calls included. Otherwise each call's own nodes
// (in graph order, nested calls left to their own pair) are aligned, each
// pair weighed by how alike: the same op, attributes and value kind, else
// the same op alone (an argument or a shape changed); by levels of longest
// common subsequences for very long calls;
// a gap left with as many nodes on both sides pairs position by position
// when the values are of one kind (`gelu` where `relu` was).
#include "engine/matching/match_stages.h"
#include "engine/matching/sequence_alignment.h"

namespace exportlens::matching {
namespace {

constexpr float kSameStructure = 1.0f, kSameKind = 0.9f, kSameOp = 0.8f, kSamePlace = 0.5f;

// The dtype and rank of a node's value, or of its op kind when it has no tensor value.
bool same_kind_of_value(const ir::Node& x, const ir::Node& y) {
  if (x.op != y.op) return false;
  const auto* tx = x.value.tensor();
  const auto* ty = y.value.tensor();
  if (tx && ty) return tx->dtype == ty->dtype && tx->rank() == ty->rank();
  return !tx && !ty && x.value.v.index() == y.value.v.index();
}

// False when the canonical orders are not alike after all (a fingerprint collision).
bool pair_identical(MatchState& s, int scope_a, int scope_b) {
  const auto na = s.a.fingerprints().canonical_nodes(scope_a), nb = s.b.fingerprints().canonical_nodes(scope_b);
  if (na.size() != nb.size()) return false;
  const float c = kSameStructure * s.scope_confidence(scope_a);
  for (size_t k = 0; k < na.size(); ++k) s.pair(na[k], nb[k], MatchReason::Structure, c);
  return true;
}

void align_own_nodes(MatchState& s, int scope_a, int scope_b) {
  std::vector<int> na, nb;
  for (int n : s.a.hierarchy()[scope_a].nodes)
    if (s.a_free(n)) na.push_back(n);
  for (int n : s.b.hierarchy()[scope_b].nodes)
    if (s.b_free(n)) nb.push_back(n);
  if (na.empty() || nb.empty()) return;
  KeyLevels keys;
  keys.a.resize(2);
  keys.b.resize(2);
  for (int n : na) keys.a[0].push_back(s.a.kind_key(n)), keys.a[1].push_back(s.a.op_key(n));
  for (int n : nb) keys.b[0].push_back(s.b.kind_key(n)), keys.b[1].push_back(s.b.op_key(n));
  const float scope = s.scope_confidence(scope_a);
  int pa = 0, pb = 0;
  auto pair_gap = [&](int a_end, int b_end) {  // [pa, a_end) against [pb, b_end)
    if (a_end - pa != b_end - pb) return;
    for (int k = 0; k < a_end - pa; ++k) {
      const int x = na[static_cast<size_t>(pa + k)], y = nb[static_cast<size_t>(pb + k)];
      if (same_kind_of_value(*s.a.nodes()[static_cast<size_t>(x)], *s.b.nodes()[static_cast<size_t>(y)]))
        s.pair(x, y, MatchReason::Position, kSamePlace * scope);
    }
  };
  // How alike two nodes are: the same op, attributes and kind of value; the same op.
  auto alike = [&](int i, int j) {
    return keys.a[0][static_cast<size_t>(i)] == keys.b[0][static_cast<size_t>(j)]   ? 3
           : keys.a[1][static_cast<size_t>(i)] == keys.b[1][static_cast<size_t>(j)] ? 2
                                                                                     : 0;
  };
  const auto pairs = na.size() * nb.size() <= kMaxScoredCells
                         ? align_by_score(static_cast<int>(na.size()), static_cast<int>(nb.size()), alike)
                         : align_by_levels(keys);
  for (const auto& [i, j] : pairs) {
    pair_gap(i, j);
    const bool exact = keys.a[0][static_cast<size_t>(i)] == keys.b[0][static_cast<size_t>(j)];
    s.pair(na[static_cast<size_t>(i)], nb[static_cast<size_t>(j)], MatchReason::Sequence,
           (exact ? kSameKind : kSameOp) * scope);
    pa = i + 1, pb = j + 1;
  }
  pair_gap(static_cast<int>(na.size()), static_cast<int>(nb.size()));
}

}  // namespace

void align_scope_nodes(MatchState& s) {
  const auto& fa = s.a.fingerprints();
  const auto& fb = s.b.fingerprints();
  std::vector<char> done(s.a.hierarchy().size(), 0);  // inside a call paired position by position
  for (const auto& [x, y] : s.scope_pairs()) {
    const int parent = s.a.hierarchy()[x].parent;
    if (parent >= 0 && done[static_cast<size_t>(parent)]) {
      done[static_cast<size_t>(x)] = 1;
      continue;
    }
    if (fa.fingerprint[static_cast<size_t>(x)] == fb.fingerprint[static_cast<size_t>(y)] && pair_identical(s, x, y))
      done[static_cast<size_t>(x)] = 1;
    else
      align_own_nodes(s, x, y);
  }
}

}  // namespace exportlens::matching

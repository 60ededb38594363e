#include "engine/matching/match_state.h"

namespace exportlens::matching {

MatchState::MatchState(const IndexedProgram& a_program, const IndexedProgram& b_program) : a(a_program), b(b_program) {
  result_.a_to_b.resize(a.size());
  result_.b_to_a.resize(b.size());
  result_.scope_a_to_b.assign(a.hierarchy().size(), -1);
  result_.scope_b_to_a.assign(b.hierarchy().size(), -1);
  scope_confidence_.assign(a.hierarchy().size(), 0.f);
}

bool MatchState::pair(int node_a, int node_b, MatchReason reason, float confidence) {
  if (node_a < 0 || node_b < 0 || !a_free(node_a) || !b_free(node_b)) return false;
  result_.a_to_b[static_cast<size_t>(node_a)] = {node_b, confidence, reason};
  result_.b_to_a[static_cast<size_t>(node_b)] = {node_a, confidence, reason};
  return true;
}

bool MatchState::pair_scopes(int scope_a, int scope_b, float confidence) {
  if (scope_a < 0 || scope_b < 0 || !scope_a_free(scope_a) || !scope_b_free(scope_b)) return false;
  result_.scope_a_to_b[static_cast<size_t>(scope_a)] = scope_b;
  result_.scope_b_to_a[static_cast<size_t>(scope_b)] = scope_a;
  scope_confidence_[static_cast<size_t>(scope_a)] = confidence;
  scope_pairs_.emplace_back(scope_a, scope_b);
  return true;
}

}  // namespace exportlens::matching

#pragma once
// The matching under construction, shared by the stages of
// match_programs() (match_stages.h): each stage pairs nodes (and module
// calls) that are still free and never undoes an earlier stage's pair.
// Private to the matching room.
#include "engine/matching/program_matching.h"

namespace exportlens::matching {

class MatchState {
 public:
  MatchState(const IndexedProgram& a, const IndexedProgram& b);

  const IndexedProgram& a;
  const IndexedProgram& b;

  bool a_free(int node) const { return !result_.a_to_b[static_cast<size_t>(node)].matched(); }
  bool b_free(int node) const { return !result_.b_to_a[static_cast<size_t>(node)].matched(); }
  /// Pairs two free nodes; false (and nothing changes) when either is taken.
  bool pair(int node_a, int node_b, MatchReason reason, float confidence);
  const NodeMatch& of_a(int node) const { return result_.a_to_b[static_cast<size_t>(node)]; }
  const NodeMatch& of_b(int node) const { return result_.b_to_a[static_cast<size_t>(node)]; }

  bool scope_a_free(int scope) const { return result_.scope_a_to_b[static_cast<size_t>(scope)] < 0; }
  bool scope_b_free(int scope) const { return result_.scope_b_to_a[static_cast<size_t>(scope)] < 0; }
  /// Pairs two free module calls with how sure the pairing is (scales their nodes' confidence).
  bool pair_scopes(int scope_a, int scope_b, float confidence);
  int scope_of_a(int scope) const { return result_.scope_a_to_b[static_cast<size_t>(scope)]; }
  int scope_of_b(int scope) const { return result_.scope_b_to_a[static_cast<size_t>(scope)]; }
  float scope_confidence(int scope_a) const { return scope_confidence_[static_cast<size_t>(scope_a)]; }
  /// Matched module-call pairs, parents before children.
  const std::vector<std::pair<int, int>>& scope_pairs() const { return scope_pairs_; }

  void set_derivation(Derivation d) { result_.derivation = d; }
  Derivation derivation() const { return result_.derivation; }
  ProgramMatching take() { return std::move(result_); }

 private:
  ProgramMatching result_;
  std::vector<float> scope_confidence_;
  std::vector<std::pair<int, int>> scope_pairs_;
};

}  // namespace exportlens::matching

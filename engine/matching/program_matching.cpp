#include "engine/matching/program_matching.h"

#include "engine/matching/match_stages.h"

namespace exportlens::matching {

std::string_view reason_name(MatchReason reason) {
  switch (reason) {
    case MatchReason::None: return "none";
    case MatchReason::Provenance: return "provenance";
    case MatchReason::Name: return "name";
    case MatchReason::Signature: return "signature";
    case MatchReason::Structure: return "structure";
    case MatchReason::Sequence: return "sequence";
    case MatchReason::Position: return "position";
    case MatchReason::Neighbourhood: return "neighbourhood";
    case MatchReason::SourceLine: return "source line";
  }
  return "?";
}

std::string_view derivation_name(Derivation d) {
  switch (d) {
    case Derivation::Independent: return "independent";
    case Derivation::BFromA: return "B lowered from A";
    case Derivation::AFromB: return "A lowered from B";
    case Derivation::CommonOrigin: return "both lowered from one program";
  }
  return "?";
}

std::vector<std::pair<int, int>> ProgramMatching::pairs() const {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < a_to_b.size(); ++i)
    if (a_to_b[i].matched()) out.emplace_back(static_cast<int>(i), a_to_b[i].node);
  return out;
}

size_t ProgramMatching::matched_count() const {
  size_t n = 0;
  for (const NodeMatch& m : a_to_b) n += m.matched() ? 1 : 0;
  return n;
}

ProgramMatching match_programs(const IndexedProgram& a, const IndexedProgram& b, const MatchOptions& options) {
  MatchState state(a, b);
  if (options.related) match_by_derivation(state);
  match_scopes(state);
  match_signature(state);
  align_scope_nodes(state);
  match_neighbourhood(state);
  match_source_lines(state);
  return state.take();
}

}  // namespace exportlens::matching

#pragma once
// The stages of match_programs(), in the order it runs them; each pairs
// only what is still free (match_state.h). One file each. Private to the
// matching room.
#include "engine/matching/match_state.h"

namespace exportlens::matching {

/// One program lowered from the other (or both from one): nodes with the
/// same name and op, then each origin's last derived node with its origin
/// (derivation_matching.cpp).
void match_by_derivation(MatchState& state);

/// Module calls, from the root down: children of two matched calls by
/// path and call number, then aligned by fingerprint and by class
/// (scope_matching.cpp).
void match_scopes(MatchState& state);

/// Graph inputs by their signature role: user inputs by name, else by
/// position; weights by state-dict key, mapped through the matched module
/// calls; the output node (signature_matching.cpp).
void match_signature(MatchState& state);

/// Nodes of matched module calls: position by position when their
/// fingerprints are equal, else aligned along their ops (scope_node_alignment.cpp).
void align_scope_nodes(MatchState& state);

/// What is left, from matched neighbours: the same op reading matched
/// values at the same argument, or read by a matched node there
/// (neighbourhood_matching.cpp).
void match_neighbourhood(MatchState& state);

/// What is left after that: the same op from the same line of code, in
/// order of occurrence (source_line_matching.cpp).
void match_source_lines(MatchState& state);

}  // namespace exportlens::matching

#pragma once
// Which node of program B is which node of program A: the matching the
// diff classifies and numerics compares values along.
//
//   const matching::IndexedProgram a(ep_a), b(ep_b);
//   const matching::ProgramMatching m = matching::match_programs(a, b);
//   m.a_to_b[i].node        // B's node for A's node i, or -1 (removed)
//   m.a_to_b[i].confidence  // 1 for an exact correspondence, lower for a guess
//   m.a_to_b[i].reason      // how it was found (reason_name(): "structure", ...)
//
// Matches are one to one. They are found by small stages run in order, each
// pairing only nodes still unpaired (program_matching.cpp lists them):
// where one program derives from the other (a lowering, MatchOptions::related),
// by name and provenance; the graph inputs and the output by their role in the
// signature; module calls by path, fingerprint and class, children aligned
// per parent so a block inserted into a ModuleList shifts the rest; nodes of
// module calls computing the same thing position by position, the rest by
// the longest common subsequence of their ops per module call; then what is
// left by its neighbours (the same op reading matched values) and its source
// line. No stage reads node names of independent programs, so renumbered
// names do not matter. Linear in the nodes but for the per-module
// alignments (Myers, O((N+M)D) each).
#include <string_view>
#include <vector>

#include "engine/matching/indexed_program.h"

namespace exportlens::matching {

/// How a pair was found, strongest first.
enum class MatchReason : unsigned char {
  None,
  Provenance,     // one program was lowered from the other: the node it was made from
  Name,           // one program derives from the other: the same name and op
  Signature,      // a graph input by its role (user input, the weight's state-dict key), or the output
  Structure,      // the same place in two module calls that compute the same thing
  Sequence,       // aligned along the ops of two matched module calls
  Position,       // the same place between aligned ops of two matched module calls, another op
  Neighbourhood,  // the same op reading matched values, or read by matched nodes
  SourceLine,     // the same op from the same line of code
};
/// "provenance", "name", "signature", "structure", "sequence", "position", "neighbourhood", "source line".
std::string_view reason_name(MatchReason reason);

struct NodeMatch {
  int node = -1;          // the other program's node index; -1: no counterpart
  float confidence = 0;   // (0, 1]: 1 exact, below 0.75 a guess worth a look
  MatchReason reason = MatchReason::None;
  bool matched() const { return node >= 0; }
};

/// Whether one program was made from the other by ExportLens's passes (in this process: the
/// provenance is not saved in a .pt2).
enum class Derivation { Independent, BFromA, AFromB, CommonOrigin };
std::string_view derivation_name(Derivation d);  // "independent", "B lowered from A", ...

struct ProgramMatching {
  std::vector<NodeMatch> a_to_b;  // by A's node index
  std::vector<NodeMatch> b_to_a;  // by B's node index
  /// Module calls: by A's scope index, B's matched scope (-1: none), and back.
  std::vector<int> scope_a_to_b, scope_b_to_a;
  Derivation derivation = Derivation::Independent;

  /// Matched pairs (A's node, B's node) in A's graph order.
  std::vector<std::pair<int, int>> pairs() const;
  size_t matched_count() const;
};

struct MatchOptions {
  /// The caller knows B was lowered from A (or A from B, or both from one
  /// program) in this process: match by name and provenance first. Only the
  /// caller can know: provenance names nodes by name alone, and two
  /// independent exports of one model share most names.
  bool related = false;
};

ProgramMatching match_programs(const IndexedProgram& a, const IndexedProgram& b, const MatchOptions& options = {});

}  // namespace exportlens::matching

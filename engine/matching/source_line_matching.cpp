// The last resort: free nodes of the same op made by the same line of code
// (its function and text, not its file path or line number, which move
// between torch releases and venvs), paired in order of occurrence.
#include <map>

#include "engine/matching/match_stages.h"
#include "engine/matching/structure_hash.h"

namespace exportlens::matching {
namespace {

constexpr float kConfidence = 0.4f;

// Free nodes by (op, line of code), in graph order.
std::map<uint64_t, std::vector<int>> by_line(const IndexedProgram& p, const std::vector<char>& free) {
  std::map<uint64_t, std::vector<int>> out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!free[i] || p.nodes()[i]->op != ir::OpKind::CallFunction) continue;
    const auto frame = p.nodes()[i]->meta.innermost_frame();
    if (!frame || frame->code.empty()) continue;
    out[hash::mix(p.op_key(static_cast<int>(i)), hash::mix(hash::text(frame->function), hash::text(frame->code)))]
        .push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace

void match_source_lines(MatchState& s) {
  std::vector<char> free_a(s.a.size()), free_b(s.b.size());
  for (size_t i = 0; i < s.a.size(); ++i) free_a[i] = s.a_free(static_cast<int>(i));
  for (size_t i = 0; i < s.b.size(); ++i) free_b[i] = s.b_free(static_cast<int>(i));
  const auto lines_b = by_line(s.b, free_b);
  for (const auto& [key, nodes_a] : by_line(s.a, free_a)) {
    const auto it = lines_b.find(key);
    if (it == lines_b.end()) continue;
    for (size_t k = 0; k < std::min(nodes_a.size(), it->second.size()); ++k)
      s.pair(nodes_a[k], it->second[k], MatchReason::SourceLine, kConfidence);
  }
}

}  // namespace exportlens::matching

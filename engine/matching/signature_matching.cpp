// Graph inputs and the output by their role in the signature. A user input
// is its forward argument (by name, else by its place among the user
// inputs); a parameter, buffer or constant is its state-dict key, read
// through the matched module calls: `layers.2.fc.weight` of A is the weight
// of the call B's `layers.3.fc` matched when a block was inserted before it.
#include "engine/matching/match_stages.h"

namespace exportlens::matching {
namespace {

constexpr float kConfidence = 1.0f;

// "layers.2.fc.weight" of A as B names it, through the matched module calls ("" when none is matched).
std::string target_in_b(const MatchState& s, const std::string& target) {
  for (auto dot = target.rfind('.'); dot != std::string::npos; dot = target.rfind('.', dot - 1)) {
    const int scope = s.a.scope_at(target.substr(0, dot), 0);
    if (scope >= 0) {
      const int other = s.scope_of_a(scope);
      if (other < 0) return "";
      const std::string& path = s.b.hierarchy()[other].path;
      return (path.empty() ? "" : path + ".") + target.substr(dot + 1);
    }
    if (dot == 0) break;
  }
  return target;  // owned by no module call (a top-level parameter): the same key
}

std::vector<int> user_inputs(const IndexedProgram& p) {
  std::vector<int> out;
  for (size_t i = 0; i < p.size(); ++i)
    if (const ir::InputSpec* in = p.input_spec(static_cast<int>(i)); in && in->kind == ir::InputKind::UserInput)
      out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace

void match_signature(MatchState& s) {
  // User inputs: by name, then the rest by place.
  const std::vector<int> ua = user_inputs(s.a), ub = user_inputs(s.b);
  for (int x : ua)
    for (int y : ub)
      if (s.a.nodes()[static_cast<size_t>(x)]->name == s.b.nodes()[static_cast<size_t>(y)]->name)
        s.pair(x, y, MatchReason::Signature, kConfidence);
  for (size_t k = 0; k < std::min(ua.size(), ub.size()); ++k)
    s.pair(ua[k], ub[k], MatchReason::Signature, kConfidence * 0.9f);

  // Weights and constants: by state-dict key, through the module calls, else as they are named.
  for (size_t i = 0; i < s.a.size(); ++i) {
    const ir::InputSpec* in = s.a.input_spec(static_cast<int>(i));
    if (!in || !in->target || !s.a_free(static_cast<int>(i))) continue;
    const std::string mapped = target_in_b(s, *in->target);
    int other = mapped.empty() ? -1 : s.b.input_for_target(mapped);
    if (other < 0 && mapped != *in->target) other = s.b.input_for_target(*in->target);
    const ir::InputSpec* there = other >= 0 ? s.b.input_spec(other) : nullptr;
    if (there && there->kind == in->kind) s.pair(static_cast<int>(i), other, MatchReason::Signature, kConfidence);
  }

  const ir::Node* out_a = s.a.program().graph().output();
  const ir::Node* out_b = s.b.program().graph().output();
  if (out_a && out_b) s.pair(s.a.index_of(out_a), s.b.index_of(out_b), MatchReason::Signature, kConfidence);
}

}  // namespace exportlens::matching

// What the module-call alignment left, paired through its neighbours: from
// every matched pair outwards, a free node reading the matched value at the
// same argument pairs with the one free node on the other side that does
// the same with the same op (the one with the same attributes and value
// kind when there are several), and the free inputs at the same argument of
// two matched nodes pair when they are the same op. A worklist: each new
// pair is a new anchor, so a chain of changed module calls is followed
// through.
#include <deque>

#include "engine/matching/match_stages.h"

namespace exportlens::matching {
namespace {

constexpr float kConfidence = 0.6f;

std::vector<int> inputs_of(const IndexedProgram& p, int node) {
  std::vector<int> out;
  p.nodes()[static_cast<size_t>(node)]->for_each_input([&](const ir::Node* in) { out.push_back(p.index_of(in)); });
  return out;
}

std::vector<int> users_of(const IndexedProgram& p, int node) {
  std::vector<int> out;
  for (const ir::Node* u : p.nodes()[static_cast<size_t>(node)]->users()) out.push_back(p.index_of(u));
  return out;
}

class Propagation {
 public:
  explicit Propagation(MatchState& state) : s_(state) {}

  void run() {
    for (size_t i = 0; i < s_.a.size(); ++i)
      if (!s_.a_free(static_cast<int>(i))) queue_.emplace_back(static_cast<int>(i), s_.of_a(static_cast<int>(i)).node);
    while (!queue_.empty()) {
      const auto [x, y] = queue_.front();
      queue_.pop_front();
      forward(x, y);
      backward(x, y);
    }
  }

 private:
  void pair(int x, int y, float anchor) {
    if (s_.pair(x, y, MatchReason::Neighbourhood, kConfidence * anchor)) queue_.emplace_back(x, y);
  }

  // Free users of x against free users of y reading it at the same argument.
  void forward(int x, int y) {
    const float anchor = s_.of_a(x).confidence;
    const std::vector<int> users_b = users_of(s_.b, y);
    for (int v : users_of(s_.a, x)) {
      if (v < 0 || !s_.a_free(v)) continue;
      const std::vector<int> in_v = inputs_of(s_.a, v);
      int best = -1, count = 0, exact = -1, exact_count = 0;
      for (int w : users_b) {
        if (w < 0 || !s_.b_free(w) || s_.b.op_key(w) != s_.a.op_key(v)) continue;
        const std::vector<int> in_w = inputs_of(s_.b, w);
        if (in_w.size() != in_v.size()) continue;
        bool same_place = false;
        for (size_t k = 0; k < in_v.size() && !same_place; ++k) same_place = in_v[k] == x && in_w[k] == y;
        if (!same_place) continue;
        if (w != best) best = w, ++count;
        if (s_.b.kind_key(w) == s_.a.kind_key(v) && w != exact) exact = w, ++exact_count;
      }
      if (exact_count == 1) pair(v, exact, anchor);
      else if (count == 1) pair(v, best, anchor);
    }
  }

  // Free inputs of two matched nodes, argument by argument.
  void backward(int x, int y) {
    const float anchor = s_.of_a(x).confidence;
    const std::vector<int> in_x = inputs_of(s_.a, x), in_y = inputs_of(s_.b, y);
    if (in_x.size() != in_y.size()) return;
    for (size_t k = 0; k < in_x.size(); ++k) {
      const int u = in_x[k], w = in_y[k];
      if (u >= 0 && w >= 0 && s_.a_free(u) && s_.b_free(w) && s_.a.op_key(u) == s_.b.op_key(w)) pair(u, w, anchor);
    }
  }

  MatchState& s_;
  std::deque<std::pair<int, int>> queue_;
};

}  // namespace

void match_neighbourhood(MatchState& state) { Propagation(state).run(); }

}  // namespace exportlens::matching

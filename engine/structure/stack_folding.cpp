#include "engine/structure/stack_folding.h"

#include <algorithm>
#include <map>
#include <string>

#include "engine/matching/module_path.h"
#include "engine/matching/sequence_alignment.h"
#include "engine/matching/structure_hash.h"

namespace exportlens::structure {
namespace {

constexpr size_t kMaxPeriod = 64;  // longer repeated units are not looked for
constexpr size_t kMaxKinds = 16;   // entries of one list compared with at most this many unlike ones

class Folder {
 public:
  Folder(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f) : h_(h), f_(f), key_(h.size(), 0) {
    // Entries of a ModuleList or Sequential fold by class and path pattern, so
    // an odd instance stays in its stack and is flagged there; but only
    // entries alike in structure (alike()): the first entry of each kind
    // stands for the others, and an entry alike none of them starts a kind.
    std::map<std::pair<int, uint64_t>, std::vector<int>> kinds;  // (parent, class + pattern) -> representatives
    for (size_t s = 0; s < h.size(); ++s) {
      const auto [pattern, indexed] = matching::path_pattern(h[static_cast<int>(s)].path);
      const uint64_t cls = matching::hash::text(h[static_cast<int>(s)].type);
      if (!indexed) {
        key_[s] = matching::hash::mix(~cls, f.fingerprint[s]);
        continue;
      }
      const uint64_t kind = matching::hash::mix(cls, matching::hash::text(pattern));
      std::vector<int>& representatives = kinds[{h[static_cast<int>(s)].parent, kind}];
      size_t which = 0;
      while (which < representatives.size() && !alike(representatives[which], static_cast<int>(s))) ++which;
      if (which == representatives.size() && which == kMaxKinds) {  // too many kinds to compare with: its own
        key_[s] = matching::hash::mix(~kind, s);
        continue;
      }
      if (which == representatives.size()) representatives.push_back(static_cast<int>(s));
      key_[s] = matching::hash::mix(kind, which);
    }
  }

  std::vector<Stack> run() {
    for (size_t s = 0; s < h_.size(); ++s) {
      std::vector<int> children;
      for (int c : h_[static_cast<int>(s)].children)
        if (f_.has_content[c]) children.push_back(c);
      fold(children, static_cast<int>(s), -1, -1);
    }
    return std::move(stacks_);
  }

 private:
  bool same_run(const std::vector<int>& seq, size_t a, size_t b, size_t p) const {
    for (size_t k = 0; k < p; ++k)
      if (key_[seq[a + k]] != key_[seq[b + k]]) return false;
    return true;
  }

  /// A scope's contents as a user reads them: its own ops and its child
  /// modules by class, in program order (shapes, widths and attributes left out).
  std::vector<uint64_t> skeleton(int scope) const {
    std::vector<uint64_t> out;
    for (const auto& item : f_.items[static_cast<size_t>(scope)])
      out.push_back(item.child ? matching::hash::mix(~uint64_t{0}, matching::hash::text(h_[item.index].type))
                               : f_.node_op[static_cast<size_t>(item.index)]);
    return out;
  }

  /// The same layer, perhaps with another setting (width, an activation, an
  /// extra op): at least half of the longer skeleton in common. A patch
  /// embedding beside a stage of blocks, or a stage of 6 blocks beside one
  /// of 2, is another layer.
  bool alike(int a, int b) const {
    const std::vector<uint64_t> x = skeleton(a), y = skeleton(b);
    const size_t common = matching::longest_common_subsequence(x, y).size();
    return 2 * common >= std::max(x.size(), y.size());
  }

  void fold(const std::vector<int>& seq, int parent, int enclosing, int repetition) {
    const size_t m = seq.size();
    size_t i = 0;
    while (i < m) {
      size_t best_p = 0, best_k = 1;
      for (size_t p = 1; p <= std::min(kMaxPeriod, (m - i) / 2); ++p) {
        size_t k = 1;
        while (i + (k + 1) * p <= m && same_run(seq, i, i + k * p, p)) ++k;
        if (k >= 2 && p * k > best_p * best_k) best_p = p, best_k = k;
      }
      if (best_k < 2) {
        ++i;
        continue;
      }
      Stack st;
      st.parent = parent;
      st.period = static_cast<int>(best_p);
      st.enclosing = enclosing;
      st.enclosing_repetition = repetition;
      for (size_t r = 0; r < best_k; ++r)
        st.instances.emplace_back(seq.begin() + static_cast<long>(i + r * best_p),
                                  seq.begin() + static_cast<long>(i + (r + 1) * best_p));
      const int index = static_cast<int>(stacks_.size());
      stacks_.push_back(std::move(st));
      if (best_p > 1)
        for (size_t r = 0; r < best_k; ++r) fold(std::vector<int>(stacks_[index].instances[r]), parent, index, static_cast<int>(r));
      i += best_p * best_k;
    }
  }

  const ir::ModuleHierarchy& h_;
  const matching::ScopeFingerprints& f_;
  std::vector<uint64_t> key_;
  std::vector<Stack> stacks_;
};

}  // namespace

StackReference stack_reference(const Stack& stack, const matching::ScopeFingerprints& f) {
  StackReference ref;
  for (int p = 0; p < stack.period; ++p) {
    std::map<uint64_t, std::pair<int, int>> seen;  // fingerprint -> (count, first repetition)
    for (int r = 0; r < stack.count(); ++r) {
      auto [it, inserted] = seen.try_emplace(f.fingerprint[stack.instances[r][p]], 0, r);
      ++it->second.first;
    }
    auto best = seen.begin();
    for (auto it = seen.begin(); it != seen.end(); ++it) {
      const auto [count, first] = it->second;
      if (count > best->second.first || (count == best->second.first && first < best->second.second)) best = it;
    }
    // A majority: no other fingerprint as frequent, and at least half the
    // instances (16 inverted residuals of 7 widths have none: their most
    // frequent 3 are no reference for the other 13).
    bool majority = 2 * best->second.first >= stack.count();
    for (const auto& [fp, cf] : seen)
      if (fp != best->first && cf.first == best->second.first) majority = false;
    ref.fingerprint.push_back(best->first);
    ref.first_repetition.push_back(best->second.second);
    ref.majority.push_back(majority);
  }
  return ref;
}

std::vector<Stack> fold_stacks(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f) {
  std::vector<Stack> stacks = Folder(h, f).run();
  for (Stack& st : stacks) {
    const StackReference ref = stack_reference(st, f);
    st.representative = -1;
    for (int r = 0; r < st.count(); ++r) {
      bool all = true;
      for (int p = 0; p < st.period; ++p) all = all && f.fingerprint[st.instances[r][p]] == ref.fingerprint[p];
      if (all && st.representative < 0) st.representative = r;
      st.identical = st.identical && all;
    }
    if (st.representative < 0) st.representative = 0;
  }
  return stacks;
}

}  // namespace exportlens::structure

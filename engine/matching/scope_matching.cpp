// Module calls of two programs, from the root down. The children of two
// matched calls pair up
//  1. by their path below the parent and call number, for named children
//     (`attn`, `mlp`): a name says what a module is, wherever it is called;
//  2. the rest (entries of a ModuleList or Sequential, `layers.3`, and
//     renamed children) aligned in program order, each pair weighed by how
//     alike the two are: the same fingerprint (the same computation), else
//     the same class and path with indices left out, else the same class
//     (sequence_alignment.h's align_by_score; by levels for very long
//     lists). So a block inserted into a stack shifts the blocks after it
//     instead of pairing `layers.3` with the new `layers.3`, and a block
//     whose activation changed still pairs with its place.
#include <string>
#include <unordered_map>

#include "engine/matching/match_stages.h"
#include "engine/matching/module_path.h"
#include "engine/matching/sequence_alignment.h"
#include "engine/matching/structure_hash.h"

namespace exportlens::matching {
namespace {

constexpr float kByPath = 1.0f, kByFingerprint = 1.0f, kByClassAndPlace = 0.9f, kByClass = 0.7f;

bool named(const std::string& relative_path) {
  const auto dot = relative_path.rfind('.');
  return !is_index(dot == std::string::npos ? relative_path : relative_path.substr(dot + 1));
}

struct Child {
  int scope;
  std::string path;  // below the parent
  int call;
};

std::vector<Child> children(const IndexedProgram& p, int scope) {
  std::vector<Child> out;
  for (int c : p.hierarchy()[scope].children)
    if (p.fingerprints().has_content[static_cast<size_t>(c)])
      out.push_back({c, p.hierarchy().relative_path(c), p.hierarchy()[c].call});
  return out;
}

class ChildAligner {
 public:
  ChildAligner(MatchState& state, std::vector<std::pair<int, int>>& queue) : s_(state), queue_(queue) {}

  void align(int parent_a, int parent_b) {
    const float parent = s_.scope_confidence(parent_a);
    std::vector<Child> ca = children(s_.a, parent_a), cb = children(s_.b, parent_b);
    // 1. Named children by path and call.
    std::unordered_map<std::string, int> b_named;
    for (const Child& c : cb)
      if (named(c.path)) b_named.emplace(c.path + "@" + std::to_string(c.call), c.scope);
    for (const Child& c : ca) {
      if (!named(c.path)) continue;
      const auto it = b_named.find(c.path + "@" + std::to_string(c.call));
      if (it != b_named.end()) pair(c.scope, it->second, parent * kByPath);
    }
    // 2. The rest in program order, level by level.
    std::erase_if(ca, [&](const Child& c) { return !s_.scope_a_free(c.scope); });
    std::erase_if(cb, [&](const Child& c) { return !s_.scope_b_free(c.scope); });
    if (ca.empty() || cb.empty()) return;
    KeyLevels keys;
    keys.a = levels(s_.a, ca);
    keys.b = levels(s_.b, cb);
    // How alike two children are: the same computation, the same class at the same kind of place, the same class.
    auto alike = [&](int i, int j) {
      for (int level = 0; level < 3; ++level)
        if (keys.a[level][static_cast<size_t>(i)] == keys.b[level][static_cast<size_t>(j)]) return 3 - level;
      return 0;
    };
    const auto pairs = ca.size() * cb.size() <= kMaxScoredCells
                           ? align_by_score(static_cast<int>(ca.size()), static_cast<int>(cb.size()), alike)
                           : align_by_levels(keys);
    constexpr float kHow[] = {0.f, kByClass, kByClassAndPlace, kByFingerprint};
    for (const auto& [i, j] : pairs)
      pair(ca[static_cast<size_t>(i)].scope, cb[static_cast<size_t>(j)].scope, parent * kHow[alike(i, j)]);
  }

 private:
  static std::vector<std::vector<uint64_t>> levels(const IndexedProgram& p, const std::vector<Child>& cs) {
    std::vector<std::vector<uint64_t>> k(3);
    for (const Child& c : cs) {
      const uint64_t cls = hash::text(p.hierarchy()[c.scope].type);
      k[0].push_back(p.fingerprints().fingerprint[static_cast<size_t>(c.scope)]);
      k[1].push_back(hash::mix(cls, hash::text(path_pattern(c.path).pattern)));
      k[2].push_back(cls);
    }
    return k;
  }

  void pair(int a, int b, float confidence) {
    if (s_.pair_scopes(a, b, confidence)) queue_.emplace_back(a, b);
  }

  MatchState& s_;
  std::vector<std::pair<int, int>>& queue_;
};

}  // namespace

void match_scopes(MatchState& state) {
  using ir::ModuleHierarchy;
  if (!state.pair_scopes(ModuleHierarchy::kRoot, ModuleHierarchy::kRoot, 1.0f)) return;
  std::vector<std::pair<int, int>> queue{{ModuleHierarchy::kRoot, ModuleHierarchy::kRoot}};
  ChildAligner aligner(state, queue);
  for (size_t k = 0; k < queue.size(); ++k) {
    const auto [a, b] = queue[k];
    aligner.align(a, b);
  }
}

}  // namespace exportlens::matching

#pragma once
// Aligning two sequences of keys: the index pairs of a longest common
// subsequence, found by Myers' O((N+M)D) diff. What the structure room pairs
// two instances of a stack with, and what the program matcher pairs the
// nodes (and module calls) of two programs with, scope by scope.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace exportlens::matching {

/// Beyond this many edits Myers' diff gives up (its cost grows with the
/// edit distance): two sequences that different are paired by occurrence.
constexpr int kMaxEditDistance = 1000;

/// The pairs (i, j), a[i] == b[j], of a longest common subsequence of `a`
/// and `b`, in increasing order. When more than `max_edit_distance` edits
/// separate them, the k-th occurrence of a key in `a` is paired with its
/// k-th occurrence in `b` instead (still increasing in i, not in j).
std::vector<std::pair<int, int>> longest_common_subsequence(const std::vector<uint64_t>& a,
                                                            const std::vector<uint64_t>& b,
                                                            int max_edit_distance = kMaxEditDistance);

/// Keys of the same items at several strengths, strongest first (for
/// nodes: op, attributes and value kind; then the op alone).
struct KeyLevels {
  std::vector<std::vector<uint64_t>> a, b;  // [level][item]
};

/// Aligns level by level: a longest common subsequence on the first keys,
/// then, in each gap between two of its pairs, one on the next keys, and so
/// on; so a strong key anchors the alignment and a weaker one pairs what
/// changed between anchors. Pairs in increasing order of both indices.
std::vector<std::pair<int, int>> align_by_levels(const KeyLevels& keys);

/// The most cells align_by_score() fills; longer sequences are aligned by levels.
constexpr size_t kMaxScoredCells = size_t{1} << 20;

/// The pairs of a monotone alignment of sequences of lengths n and m that
/// maximises the sum of score(i, j) over its pairs (score <= 0: never
/// paired), by dynamic programming in O(n m). Unlike a longest common
/// subsequence of one key it weighs how alike two items are: `F F F G F F`
/// against six F keeps the G at its place (paired by a weaker score)
/// instead of shifting the Fs after it. On a tie, items at the end of `b`
/// are the ones left out.
template <class Score>
std::vector<std::pair<int, int>> align_by_score(int n, int m, Score&& score);

}  // namespace exportlens::matching

#include "engine/matching/sequence_alignment_impl.h"

#pragma once
// sympy's sort_key(): the nested tuple sympy sorts Mul factors, Add
// generators, Max/Min and And/Or arguments by. Kept as a small tree so the
// comparison is exactly Python's tuple comparison.
#include <memory>
#include <string>
#include <vector>

#include "engine/symbolic/number.h"

namespace exportlens::symbolic {

class Expr;

struct SortKey {
  enum class Type { Number, String, Tuple };
  Type type = Type::Tuple;
  Num number;
  std::string text;
  std::vector<std::shared_ptr<const SortKey>> items;
};
using SortKeyPtr = std::shared_ptr<const SortKey>;

/// Python tuple comparison: -1, 0, +1.
int compare(const SortKey& a, const SortKey& b);

/// The key of a node whose args are already canonical (each carries its key).
SortKeyPtr compute_sort_key(const Expr& e);

/// A total order on structure alone (kind, value, name, args); 0 iff equal.
int structural_compare(const Expr& a, const Expr& b);
/// sympy's `ordered()`: by node count first, then by sort key, then structure.
bool ordered_less(const Expr& a, const Expr& b);
/// Plain sort_key order with a structural tie-break (Mul factors, generators).
bool sort_key_less(const Expr& a, const Expr& b);

}  // namespace exportlens::symbolic

#pragma once
// The view ops functionalization knows, one table: which ops make a view of
// their first argument (a view is made again from its base when the base
// changed) and how a mutation through such a view is written back into its
// base (torch's FunctionalInverses: select -> select_scatter, view -> view
// to the base's sizes, view.dtype -> view.dtype to the base's dtype, permute
// -> the inverse permute, diagonal -> diagonal_scatter, ...), each overload
// on its own. A second table holds the multi-output view ops
// (split, unbind, ...), whose outputs, taken by getitem, are views too.
#include <functional>
#include <string_view>
#include <vector>

#include "engine/ir/node.h"

namespace exportlens::passes {

class Rewriter;

/// What a write-back is given: the base's current value, the view's new value,
/// and the view's arguments (values of the graph being built).
struct WriteBackCall {
  Rewriter& b;
  ir::Argument base;
  ir::Argument src;
  /// The view's argument `i`, or `fallback` where the call leaves it out.
  std::function<ir::Argument(size_t i, ir::Argument fallback)> arg;
  /// Which output of a multi-output view op the view is (its getitem index).
  int64_t output = 0;
};

/// The base's new value after a mutation through the view.
using WriteBack = ir::Argument (*)(const WriteBackCall&);

struct ViewOp {
  std::string_view op;  // the aten op's name and overload ("slice.Tensor", "view.dtype")
  /// How a mutation through the view is written back; null where it cannot be
  /// (an expand's elements alias each other: torch refuses to mutate it) or is
  /// not made yet (unfold): such a mutation is refused.
  WriteBack write_back;
  /// The view is its base (alias, detach): its new value is its base's.
  bool identity = false;
  /// Autograd hands the view out detached (view.dtype: not differentiable), so
  /// torch's retrace follows it with a detach, a view of the view.
  bool detached = false;
};

/// The view op `t` calls, or null where `t` makes no view (or several).
const ViewOp* find_view_op(const ir::Target& t);
/// The multi-output view op `t` calls (split, unbind, ...), whose every
/// output is a view of its first argument; null where `t` is none.
const ViewOp* find_multi_output_view_op(const ir::Target& t);
/// Every overload of both tables ("view.dtype", "split.Tensor").
std::vector<std::string_view> view_op_overloads();

}  // namespace exportlens::passes

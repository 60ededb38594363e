// Symbolic strides and torch's contiguity probes on them, for the tracer and
// the solver. torch's make_fx stores every node's tensor_meta (_extract_tensor_metadata),
// asking is_contiguous / channels_last with guard_or_false / guard_or_true;
// a symbolic stride that cannot be decided statically there becomes a guard
// (y[:, :16] has strides (s, 1) and size 16: the guard Ne(s, 16)).
#pragma once

#include "engine/symbolic/guard.h"
#include "engine/symbolic/shape_env.h"

#include <optional>
#include <string>
#include <vector>

namespace exportlens::symbolic {

using Strides = std::vector<symbolic::Expr>;

/// Row-major strides: each the product of the later sizes.
Strides contiguous_strides(const std::vector<symbolic::Expr>& sizes);

/// A view op's output strides from its input's, for the views whose layout
/// is tracked (`op` is "slice.Tensor", "select.int", "transpose.int", ...;
/// `ints` its integer arguments after self, nullopt where not a plain int).
/// nullopt: a view whose layout is not tracked.
std::optional<Strides> view_strides(const std::string& op, const std::vector<std::optional<int64_t>>& ints,
                                    const Strides& in, size_t out_rank);

/// torch's is_contiguous_for_memory_format_or_false for contiguous_format,
/// then channels_last (rank 4) / channels_last_3d (rank 5): the guards it adds.
/// The same probe for a tensor whose strides are contiguous (most outputs),
/// cheaply: only the `size == 1` and `numel < 2` checks can add guards there.
/// Whether probe_contiguous would ask nothing undecided (every size is at
/// least 2 by its range): a cheap test before building its provenance.
bool contiguous_probe_is_quiet(const symbolic::ShapeEnv& env, const std::vector<symbolic::Expr>& sizes);
void probe_contiguous(symbolic::ShapeEnv& env, const std::vector<symbolic::Expr>& sizes,
                      const symbolic::Provenance& origin);

void probe_contiguity(symbolic::ShapeEnv& env, const std::vector<symbolic::Expr>& sizes, const Strides& strides,
                      const symbolic::Provenance& origin);

/// torch's is_non_overlapping_and_dense_or_false (_prims_common): the
/// (size, stride) pairs sorted by stride the way CPython 3.11's list.sort
/// compares them (its comparisons, _prims_common.K.__lt__, are guards), then
/// the contiguity check of the sorted pairs. A memory-format conversion
/// (`.to(memory_format=channels_last)` of a conv's output) asks it first.
bool non_overlapping_and_dense_or_false(symbolic::ShapeEnv& env, const std::vector<symbolic::Expr>& sizes,
                                        const Strides& strides, const symbolic::Provenance& origin);

}  // namespace exportlens::symbolic

#pragma once
// Pieces several rule families share: torch's broadcasting (fake_impls'
// infer_size), products of sizes, dtype promotion, reduction shapes.
#include <vector>

#include "engine/ops/shape_rule.h"

namespace exportlens::ops {

/// Broadcast two shapes exactly as torch's infer_size does (last dim first:
/// guard_or_false(a == 1), guard_or_false(b == 1), else check a == b).
std::vector<Expr> broadcast_shapes(RuleContext& ctx, const std::vector<Expr>& a, const std::vector<Expr>& b,
                                   const char* rule = "broadcast");

/// The product of sizes (1 for a scalar), through `memo` when there is one:
/// the same shapes meet again in every block of a deep model, and in every
/// re-solve.
Expr product(const std::vector<Expr>& sizes, size_t begin = 0, size_t end = SIZE_MAX,
             symbolic::SolveMemo* memo = nullptr);

/// Whether the file records `n`'s value with contiguous strides (so its layout
/// is contiguous at any sizes a spec allows: the view algorithm and the
/// solver's tensor_meta probe ask this).
bool recorded_contiguous(const ir::Node* n);

/// torch's result type for a binary op on tensors (ints promote to the wider, floats win).
ir::ScalarType promote(ir::ScalarType a, ir::ScalarType b);

/// The dtype torch accumulates a sum or product in (sum, prod, cumsum, cumprod
/// without dtype=): int64 for integral and bool inputs, else the input's.
ir::ScalarType summed_dtype(ir::ScalarType input);

/// The dims a reduction runs over (empty list or None: all), wrapped.
std::vector<int64_t> reduction_dims(RuleContext& ctx, size_t index, std::string_view name, size_t rank);

/// sizes with the reduced dims dropped (or kept as 1).
std::vector<Expr> reduced_sizes(const std::vector<Expr>& sizes, const std::vector<int64_t>& dims, bool keepdim);

/// A tensor with the same sizes and (optionally) another dtype.
SymValue same_shape(const SymTensor& t);
SymValue shaped(std::vector<Expr> sizes, ir::ScalarType dtype);

}  // namespace exportlens::ops

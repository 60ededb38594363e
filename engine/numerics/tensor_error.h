#pragma once
// The numbers behind a numerics run, computed with LibTorch: the error
// statistics of two values (tensors, lists and tuples of them, scalars), the
// finiteness of a value, and a value as a TensorSnapshot. LibTorch headers:
// engine/numerics sources and tests only.
#include <ATen/core/ivalue.h>

#include <optional>
#include <utility>

#include "engine/numerics/numerics_report.h"
#include "engine/numerics/tensor_snapshot.h"

namespace exportlens::numerics {

/// B's value against A's, in float64 on A's device; nullopt when the two
/// cannot be compared (other shapes, other kinds of value).
std::optional<ErrorStats> error_stats(const c10::IValue& a, const c10::IValue& b);

/// A CPU tensor against itself cast to `to` (a floating dtype, or its own),
/// exactly as error_stats(a, a.to(to)) but with no cast made: each element is
/// rounded where it is read. nullopt off the CPU or for other dtypes.
std::optional<ErrorStats> rounding_stats(const at::Tensor& a, c10::ScalarType to);
/// error_stats(a, b) and rounding_stats(a, to) of two CPU tensors, the same
/// figures to the bit, in one pass over `a`; nullopt where either would be.
std::optional<std::pair<ErrorStats, ErrorStats>> error_and_rounding_stats(const at::Tensor& a, const at::Tensor& b,
                                                                          c10::ScalarType to);

/// Whether error_stats reads `t` on the CPU a block at a time, folding a
/// sequence of elements in order: A's dims by stride, largest first (memory
/// order where A's tensor is dense), B's elements read in the same order. Two
/// pairs with equal sequences (and dtypes) have exactly equal statistics,
/// whatever their shapes.
bool streamed(const at::Tensor& t);
/// Whether `y`, made from `x` by ops that only move data (data_movement.h),
/// is read as the same sequence as `x` (both streamed): the same elements
/// walked alike (a view, a permute, an expand repeating nothing); or, for ops
/// keeping the row-major order (`keeps_order`: a reshape, a clone), both read
/// row-major or laid out alike. A pair with `y` on A's side (B's moved alike)
/// then has exactly the statistics of x's pair, and y's rounding is x's.
bool same_sequence(const at::Tensor& x, const at::Tensor& y, bool keeps_order);
/// Whether a CPU tensor of this dtype is streamed.
bool streamed(c10::ScalarType dtype);

/// Whether every element of every tensor in `v` is finite (non-tensors: true).
bool all_finite(const c10::IValue& v);

/// A tensor as the viewer shows it; `max_elements` caps the elements kept (not the statistics).
TensorSnapshot snapshot(const at::Tensor& t, int64_t max_elements);
/// B - A as a snapshot (A's and B's shapes must agree).
TensorSnapshot difference_snapshot(const at::Tensor& a, const at::Tensor& b, int64_t max_elements);

}  // namespace exportlens::numerics

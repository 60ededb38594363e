#pragma once
// Checked arithmetic over a tensor's declared layout. Sizes, strides and
// offsets come from files, so every product and sum is checked for int64
// overflow before it is trusted to size an allocation or bound a read.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/ir/tensor_meta.h"

namespace exportlens::ir {

/// The entry's value: its constant, else its example value (hint).
std::optional<int64_t> example_value(const SymInt& s);

/// Why the layout cannot describe a tensor (ranks differ, a negative size or
/// stride, arithmetic that overflows int64), or nullopt when it can. Symbolic
/// entries are judged by their example values (hints) where they have one.
std::optional<std::string> layout_problem(const TensorMeta& m);

/// Elements of storage the view reaches (offset + sum((size-1)*stride) + 1;
/// 0 for a tensor without elements); nullopt when layout_problem() has one or
/// an entry has no example value.
std::optional<int64_t> storage_extent(const TensorMeta& m);

/// Bytes of `count` elements of `dtype`, nullopt on overflow.
std::optional<int64_t> byte_size(int64_t count, ScalarType dtype);

}  // namespace exportlens::ir

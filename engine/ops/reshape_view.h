#pragma once
// torch's meta for view and reshape on symbolic sizes (torch/_refs'
// _reshape_view_helper and its NOTE [Reshape Algorithm]), as far as it guards:
// the requested dims are built left to right, merging input dims while
// `accum % length != 0` and splitting where `accum != length`, and each of
// those comparisons is a guard (`s // 2 != s`, `s % (s // 2) == 0`,
// `(h // 8)*(w // 8) != h // 8`, ...). Its sizes are torch's: a split dim's
// inner length is `s // (s // 2)`, not the requested 2.
#include <vector>

#include "engine/ops/shape_rule.h"

namespace exportlens::ops {

/// The output sizes of reshaping a tensor of sizes `in` to `shape` (no -1:
/// infer_size has run), making the algorithm's guards; `shape` itself where a
/// size has no example value to decide them by. The input's strides do not
/// change them: a non-contiguous input is either viewed by the same algorithm
/// (splitting a dim is always a view, so EfficientFormerV2's transposed
/// [B, C, h*w] reshaped to [B, C, 2, 2] is recorded as [B, C, 2, (h*w)//2]),
/// or reshape copies it to a contiguous tensor first and views that.
std::vector<Expr> reshape_sizes(RuleContext& ctx, const std::vector<Expr>& in, const std::vector<Expr>& shape);

}  // namespace exportlens::ops

#pragma once
// The Core ATen operator set (ops torch 2.13 tags torch.Tag.core): what a
// Core ATen program may call. `exportlens info --ir core` flags the rest.
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/node.h"

namespace exportlens::passes {

/// "aten.addmm.default", ... sorted.
const std::vector<std::string>& core_aten_ops();
bool is_core_aten_op(std::string_view op_key);
/// Whether a call of `target` may stay in a Core ATen program: a core op,
/// the functional form of a core op that mutates, an assert, or no ATen op
/// at all (getitem, SymInt arithmetic, higher-order and custom ops).
bool allowed_in_core_ir(const ir::Target& target);

}  // namespace exportlens::passes

#pragma once
// The one spelling of an op: torch's str() of an OpOverload,
// "aten.linear.default" ("aten.linear" for the packet, every overload).
// Decomposition tables, op histograms and shape rules are keyed by it.
// (Target::schema_name(), "aten::linear", is the dispatcher's name for an
// op's schema, used only where LibTorch is asked for one.)
#include <string>
#include <string_view>

#include "engine/ir/node.h"

namespace exportlens::ir {

/// "aten.linear.default"; a non-op target's qualified name ("_operator.getitem" stays as is).
std::string op_key(const Target& target);
/// "aten.linear": the key of every overload of the op (empty for non-ops).
std::string op_packet_key(const Target& target);
/// The target for an op key ("aten.addmm.default" -> torch.ops.aten.addmm.default).
Target op_target(std::string_view key);

}  // namespace exportlens::ir

#pragma once
// Which operators a downloaded program may run without the user's say-so: the
// ones that compute on tensors. An op that touches files, processes, the
// network, process-wide state or raw memory is refused unless the user names
// it (`--allow-op`, or the GUI's confirmation). The rules read the op's
// schema, so ops registered later (custom ops of a loaded library) are judged
// the same way. LibTorch headers: include only from runtime sources and tests.
#include <ATen/core/function_schema.h>

#include <optional>
#include <set>
#include <string>

#include "engine/ir/node.h"

namespace exportlens::runtime {

/// What running `schema` could do beyond computing on tensors ("reads or
/// writes files", ...), or nullopt for an op that only computes.
std::optional<std::string> unsafe_reason(const c10::FunctionSchema& schema);

/// Whether the user allowed `target` by name: "aten::from_file" allows every
/// overload, "aten::from_file.out" one (the "aten.from_file" spelling too).
bool user_allows(const std::set<std::string>& allowed, const ir::Target& target);

}  // namespace exportlens::runtime

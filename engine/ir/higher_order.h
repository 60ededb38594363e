#pragma once
// Higher-order ops that only wrap a subgraph in a context, as torch.export
// writes them for `with torch.no_grad():` / `with torch.autocast(...)` in
// user code (language models' rotary embeddings use both):
//
//   wrap_with_set_grad_enabled(enable_grad, body, *operands)
//   wrap_with_autocast(device_type, dtype, enabled, cache_enabled, body, *operands)
//
// Their value is the tuple of the body's outputs. The runtime runs the body
// in the context; the shape solver traces through the body; the lowering
// inlines it (torch's run_decompositions does).
#include <optional>

#include "engine/ir/graph.h"
#include "engine/ir/node.h"

namespace exportlens::ir {

/// The position of the body argument of a context-wrapper HOP (its operands
/// follow it), or nullopt for any other target.
std::optional<size_t> wrapper_body_argument(const Target& target);

/// The body subgraph a wrapper call names in `owner`, or nullptr.
const GraphModule* wrapper_body(const Node& call, const GraphModule& owner);

}  // namespace exportlens::ir

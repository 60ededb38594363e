#pragma once
// torch.fx's CodeGen._gen_python_code in verbose mode (what print_readable
// uses): one graph as the text of its `def forward(...)`, with the type
// annotations, stack-trace comments and `x = None` deletions FX writes.
// Internal to the printer.
#include "engine/ir/graph.h"
#include "engine/ir/printer.h"

namespace exportlens::ir {

/// graph.python_code(root_module="self", verbose=True).src with its leading
/// newlines stripped: "def forward(self, x: \"f32[3]\"):\n    ...\n    ".
/// Node lines count from the `def` line (line 0).
PrintedText generate_forward(const Graph& graph, const PrintOptions& options);

}  // namespace exportlens::ir

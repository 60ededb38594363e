#pragma once
// Python traceback text (node.meta["stack_trace"]) read the way FX reads it,
// so the GUI's source locations agree with print(ep)'s "# File:" comments.
#include <optional>
#include <string_view>
#include <vector>

#include "engine/ir/node.h"

namespace exportlens::ir {

/// The innermost `File "path", line N, in fn` frame that is followed by a
/// code line (FX's _parse_stack_trace), or nullopt.
std::optional<SourceLocation> innermost_frame(std::string_view stack_trace);

/// Every such frame of a Python traceback text, outermost first (a message's
/// "from user code:" section, a stack trace).
std::vector<SourceLocation> traceback_frames(std::string_view text);

}  // namespace exportlens::ir

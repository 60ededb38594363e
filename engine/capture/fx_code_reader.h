#pragma once
// Reads the Python code FX writes for a graph back into a program: the
// partial graph torch logs when a trace fails (make_fx_fail_partial), a Dynamo
// graph, or the forward of a printed ExportedProgram (a draft export's log).
// As MLIR's printed form reads back, FX's does here: one placeholder per
// argument of `def forward`, one node per statement (torch.ops calls, Python
// operators on symbolic values, getitem), the `# File: …` comments as each
// node's stack trace and the annotations ("f32[10][1]cpu", "Sym(u0)") as its
// value. A statement it cannot read is left out with a note; nothing in the
// text is run.
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/serde/read_limits.h"

namespace exportlens::capture {

struct FxCodeProgram {
  ir::ExportedProgram program;
  std::vector<std::string> notes;  // statements left out, with why
};

/// Reads the first `def forward(self, …):` in `code` and the statements
/// indented under it. Throws exportlens::Error when the text holds no forward
/// or is over the limits (node count, nesting).
FxCodeProgram read_fx_code(std::string_view code, const serde::ReadLimits& limits = {});

}  // namespace exportlens::capture

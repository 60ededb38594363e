#pragma once
// Guards and range constraints of two programs compared under one spec.
// The files' own range constraints cannot be compared as they are: each
// export names its symbols its own way and keeps dynamic what its own spec
// asked for. So both programs are solved again (engine/ops) under the same
// spec, every input dim either file keeps symbolic as Dim.AUTO: torch names
// a symbol after the input dim it sizes, so the guards, ranges and input
// shapes of the two solves read alike where the programs agree. A guard is
// compared by its meaning (a relation as `lhs - rhs` against 0), not its
// spelling.
#include "engine/diff/program_diff.h"

namespace exportlens::diff {

GuardDiff diff_guards(const ir::ExportedProgram& a, const ir::ExportedProgram& b);

}  // namespace exportlens::diff

#pragma once
// The text `exportlens info FILE.pt2 --structure` prints: the module tree
// with every stack folded into one line, "6 × Block (blocks.0 … blocks.5)",
// its representative instance below it, and one line per instance that
// differs, with what differs.
#include <string>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/structure/repeated_structure.h"

namespace exportlens::structure {

std::string format_structure(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h,
                             const RepeatedStructure& structure);

/// call_function nodes inside a scope, size expressions left out.
size_t op_count(const ir::ExportedProgram& program, const RepeatedStructure& structure, int scope);

/// The class of the exported module itself ("TransformerStack"), or "" when no node records it.
std::string root_class(const ir::ExportedProgram& program);

}  // namespace exportlens::structure

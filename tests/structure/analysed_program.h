#pragma once
// A program read (weights left out), at the training or the Core ATen level,
// with its module hierarchy and repeated structure (the guards of a Dim.AUTO
// solve attributed): what the structure suites analyse.
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "engine/structure/repeated_structure.h"
#include "engine/structure/structure_facts.h"

namespace exportlens::testing {

struct AnalysedProgram {
  ir::ExportedProgram program;
  ir::ModuleHierarchy hierarchy;
  structure::RepeatedStructure structure;
  std::vector<ir::Node*> nodes;
};

/// `level`: "training" (as exported) or "core" (lowered to Core ATen).
inline AnalysedProgram analyse_program(const std::string& pt2, const std::string& level) {
  serde::ReadOptions read;
  read.load_weights = false;
  AnalysedProgram a;
  a.program = serde::read_pt2(pt2, "", read);
  if (level == "core") a.program = passes::lower_to(a.program, passes::IrLevel::Core);
  a.hierarchy = ir::module_hierarchy(a.program.graph());
  a.structure = structure::analyse_structure(a.program, a.hierarchy, structure::solve_guard_facts(a.program));
  a.nodes = a.program.graph().nodes();
  return a;
}

}  // namespace exportlens::testing

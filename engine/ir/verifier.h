#pragma once
// Structural checks of an ExportedProgram, each finding naming the node or
// signature entry it is about. Readers run it so that a malformed file is
// reported precisely instead of failing somewhere downstream.
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct VerifierFinding {
  std::string where;    // "node 'add_1'", "graph signature input 2", "submodule 'true_graph_0'"
  std::string message;  // what is wrong
  std::string str() const { return where + ": " + message; }
};

std::vector<VerifierFinding> verify(const ExportedProgram& ep);
std::vector<VerifierFinding> verify(const GraphModule& gm, std::string_view scope = "");

/// Throws std::runtime_error listing every finding, if there are any.
void verify_or_throw(const ExportedProgram& ep);

}  // namespace exportlens::ir

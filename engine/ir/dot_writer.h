#pragma once
// Graphviz DOT text for a program's graph (what `exportlens dot` prints):
// one box per node labelled with its op and output annotation, module-scope
// clusters, subgraphs of cond/map as their own clusters.
#include <string>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct DotOptions {
  bool module_clusters = true;
};

std::string to_dot(const ExportedProgram& ep, const DotOptions& options = {});

}  // namespace exportlens::ir

#pragma once
// Which kernels of a compiled model compute which nodes of a program: the
// link between the graph a user browses and the code that runs in production.
// Kernels name nodes (pre-grad names from inductor's provenance, else the
// wrapper's source comments); names the program does not have are kept aside,
// never guessed.
#include <map>
#include <string>
#include <vector>

#include "engine/compiled/compiled_model.h"
#include "engine/ir/exported_program.h"

namespace exportlens::compiled {

struct KernelMap {
  std::map<std::string, std::vector<int>> kernels_of_node;  // program node name -> indexes into CompiledModel::kernels
  std::vector<std::vector<std::string>> nodes_of_kernel;     // per kernel: its nodes the program has
  std::vector<std::string> unknown_nodes;                    // names kernels give that the program lacks
  int mapped_kernels = 0;                                    // kernels with at least one node in the program
  /// "5 of 6 kernels mapped onto 9 nodes (provenance); 1 name not in the program".
  std::string summary(const CompiledModel& model) const;
};

KernelMap map_kernels(const CompiledModel& model, const ir::ExportedProgram& program);

}  // namespace exportlens::compiled

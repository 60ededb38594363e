#include "engine/compiled/kernel_map.h"

#include <set>

namespace exportlens::compiled {

KernelMap map_kernels(const CompiledModel& model, const ir::ExportedProgram& program) {
  KernelMap out;
  out.nodes_of_kernel.resize(model.kernels.size());
  std::set<std::string> unknown;
  for (size_t k = 0; k < model.kernels.size(); ++k) {
    for (const std::string& name : model.kernels[k].nodes) {
      if (!program.graph().find(name)) {
        unknown.insert(name);
        continue;
      }
      auto& kernels = out.kernels_of_node[name];
      if (kernels.empty() || kernels.back() != int(k)) kernels.push_back(int(k));
      out.nodes_of_kernel[k].push_back(name);
    }
    if (!out.nodes_of_kernel[k].empty()) ++out.mapped_kernels;
  }
  out.unknown_nodes.assign(unknown.begin(), unknown.end());
  return out;
}

std::string KernelMap::summary(const CompiledModel& model) const {
  std::set<std::string> how;
  for (const Kernel& k : model.kernels)
    if (!k.mapped_by.empty()) how.insert(k.mapped_by);
  std::string by;
  for (const std::string& h : how) by += (by.empty() ? "" : ", ") + h;
  std::string s = std::to_string(mapped_kernels) + " of " + std::to_string(model.kernels.size()) + " kernel" +
                  (model.kernels.size() == 1 ? "" : "s") + " mapped onto " + std::to_string(kernels_of_node.size()) +
                  " node" + (kernels_of_node.size() == 1 ? "" : "s");
  if (!by.empty()) s += " (" + by + ")";
  else if (!model.kernels.empty()) s += " (the package has no provenance: compile with trace.provenance_tracking_level=1)";
  if (!unknown_nodes.empty())
    s += "; " + std::to_string(unknown_nodes.size()) + " name" + (unknown_nodes.size() == 1 ? "" : "s") +
         " not in the program";
  return s;
}

}  // namespace exportlens::compiled

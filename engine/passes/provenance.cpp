#include "engine/passes/provenance.h"

#include "engine/passes/op_call.h"

namespace exportlens::passes {

const std::vector<ir::NodeOrigin>& lineage(const ir::Node& node) { return node.meta.provenance; }

ir::NodeOrigin exported_origin(const ir::Node& node) {
  if (!node.meta.provenance.empty()) return node.meta.provenance.back();
  return {"", node.name, node.op == ir::OpKind::CallFunction ? op_key(node.target) : std::string()};
}

std::optional<ir::SourceLocation> source_location(const ir::Node& node) { return node.meta.innermost_frame(); }

std::string describe_lineage(const ir::Node& node) {
  std::string out = node.name;
  for (const auto& o : node.meta.provenance) out += " <- " + o.node + " (" + o.pass + ")";
  return out;
}

namespace {
void collect(const ir::GraphModule& gm, const std::string& origin, size_t depth, std::vector<const ir::Node*>& out) {
  for (const ir::Node* n : gm.graph.nodes()) {
    const auto& p = n->meta.provenance;
    if (p.empty()) continue;
    const ir::NodeOrigin& o = depth == 0 ? p.back() : (depth <= p.size() ? p[depth - 1] : p.back());
    if ((depth == 0 || depth <= p.size()) && o.node == origin) out.push_back(n);
  }
  for (const auto& [name, sub] : gm.submodules) collect(*sub, origin, depth, out);
}
}  // namespace

std::vector<const ir::Node*> descendants(const ir::ExportedProgram& program, const std::string& origin,
                                         size_t depth) {
  std::vector<const ir::Node*> out;
  collect(program.graph_module, origin, depth, out);
  return out;
}

}  // namespace exportlens::passes

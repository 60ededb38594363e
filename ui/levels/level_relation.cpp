#include "ui/levels/level_relation.h"

namespace exportlens::ui {

std::string ancestor_name(const ir::Node& node, int steps) {
  const auto& chain = node.meta.provenance;
  if (steps <= 0 || chain.empty()) return node.name;  // a node no pass made keeps its name
  return chain[std::min<size_t>(steps, chain.size()) - 1].node;
}

LevelChoice common_level(const LevelChoice& a, const LevelChoice& b) {
  if (a.rank() != b.rank()) return a.rank() < b.rank() ? a : b;
  if (a == b) return a;
  return LevelChoice::functional();  // two core tables part after the functional level
}

QStringList related_nodes(const ir::Node& node, const LevelChoice& level, const ir::ExportedProgram& other,
                          const LevelChoice& otherLevel) {
  const LevelChoice common = common_level(level, otherLevel);
  const std::string origin = ancestor_name(node, level.rank() - common.rank());
  QStringList out;
  for (const ir::Node* candidate : other.graph().nodes()) {
    if (candidate->op == ir::OpKind::Output) continue;
    if (ancestor_name(*candidate, otherLevel.rank() - common.rank()) == origin)
      out.append(QString::fromStdString(candidate->name));
  }
  return out;
}

}  // namespace exportlens::ui

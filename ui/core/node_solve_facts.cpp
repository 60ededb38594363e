#include "ui/core/node_solve_facts.h"

namespace exportlens::ui {

NodeSolveFactsMap node_solve_facts(const ops::SolveResult& result) {
  NodeSolveFactsMap facts;
  for (const auto& shape : result.node_shapes)
    facts[QString::fromStdString(shape.node)].value = QString::fromStdString(shape.value);
  for (const auto& guard : result.guards) {
    if (guard.origin.node.empty()) continue;
    facts[QString::fromStdString(guard.origin.node)].guards
        << QString::fromStdString(guard.python.empty() ? guard.expr : guard.python);
  }
  for (const auto& v : result.violations)
    if (v.origin && !v.origin->node.empty())
      facts[QString::fromStdString(v.origin->node)].violations << QString::fromStdString(v.message);
  return facts;
}

}  // namespace exportlens::ui

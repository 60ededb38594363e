#pragma once
// What a solve says about each node, for the inspector and the signature:
// its symbolic value under the edited spec and the guards it emitted.
#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>

#include "engine/ops/solve_result.h"

namespace exportlens::ui {

using SolveResultPtr = std::shared_ptr<const ops::SolveResult>;

struct NodeSolveFacts {
  QString value;       // "f32[s77, 5]"
  QStringList guards;  // "L['x'].size()[0] == L['y'].size()[0]"
  QStringList violations;  // torch's lines for violations this node caused
};

using NodeSolveFactsMap = QHash<QString, NodeSolveFacts>;

NodeSolveFactsMap node_solve_facts(const ops::SolveResult& result);

}  // namespace exportlens::ui

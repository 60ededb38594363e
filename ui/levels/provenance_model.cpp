#include "ui/levels/provenance_model.h"

#include <QFileInfo>
#include <QFont>

#include "engine/passes/op_call.h"
#include "engine/passes/provenance.h"

namespace exportlens::ui {
namespace {

QString op_of(const ir::Node& node) {
  return node.op == ir::OpKind::CallFunction ? QString::fromStdString(passes::op_key(node.target))
                                             : QString::fromStdString(std::string(ir::op_kind_name(node.op)));
}

QString source_of(const ir::Node& node) {
  const auto where = passes::source_location(node);
  if (!where) return {};
  return QStringLiteral("%1:%2").arg(QFileInfo(QString::fromStdString(where->file)).fileName()).arg(where->line);
}

// The level `steps` lowerings above `level`: functional, then training.
LevelChoice level_above(const LevelChoice& level, int steps) {
  const int rank = level.rank() - steps;
  return rank <= 0 ? LevelChoice::training() : rank == 1 ? LevelChoice::functional() : level;
}

}  // namespace

QList<ProvenanceStep> provenance_chain(const ir::Node& node, const LevelChoice& level,
                                       const LevelProgramLookup& programs) {
  const QString own_source = source_of(node);
  QList<ProvenanceStep> chain{{level, QString::fromStdString(node.name), op_of(node), own_source}};
  const auto& origins = node.meta.provenance;
  for (size_t i = 0; i < origins.size() && static_cast<int>(i) < level.rank(); ++i) {
    const LevelChoice above = level_above(level, static_cast<int>(i) + 1);
    ProvenanceStep step{above, QString::fromStdString(origins[i].node), QString::fromStdString(origins[i].target),
                        own_source};
    // The origin's own record, when that level is lowered already (its source line is the authority).
    if (auto program = programs ? programs(above) : nullptr) {
      if (const ir::Node* origin = program->graph().find(origins[i].node)) step.source = source_of(*origin);
      if (above.rank() == 0) step.level = LevelChoice::opened(*program);  // named as the switch names the file
    }
    chain.append(step);
  }
  return chain;
}

ProvenanceModel::ProvenanceModel(QObject* parent)
    : NodeTableModel({{tr("Level")}, {tr("Node")}, {tr("Op")}, {tr("Source")}}, parent) {}

void ProvenanceModel::setChain(QList<ProvenanceStep> chain) {
  resetRows([&] { chain_ = std::move(chain); });
}

const ProvenanceStep* ProvenanceModel::stepAt(int row) const {
  return row >= 0 && row < chain_.size() ? &chain_[row] : nullptr;
}

QVariant ProvenanceModel::text(int row, int column) const {
  const ProvenanceStep& step = chain_[row];
  switch (column) {
    case Level: return (row == 0 ? QString() : QStringLiteral("← ")) + step.level.label();
    case Node: return step.node;
    case Op: return step.op;
    case Source: return step.source;
  }
  return {};
}

QVariant ProvenanceModel::toolTip(int row, int) const {
  if (row == 0) return {};
  return tr("Show %1 in the %2 program").arg(chain_[row].node, chain_[row].level.label());
}

QVariant ProvenanceModel::otherRole(int row, int, int role) const {
  if (role != Qt::FontRole || row != 0) return {};
  QFont bold;
  bold.setBold(true);
  return bold;
}

}  // namespace exportlens::ui

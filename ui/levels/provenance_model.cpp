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
    }
    chain.append(step);
  }
  return chain;
}

ProvenanceModel::ProvenanceModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProvenanceModel::setChain(QList<ProvenanceStep> chain) {
  beginResetModel();
  chain_ = std::move(chain);
  endResetModel();
}

const ProvenanceStep* ProvenanceModel::stepAt(int row) const {
  return row >= 0 && row < chain_.size() ? &chain_[row] : nullptr;
}

int ProvenanceModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : chain_.size(); }

int ProvenanceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProvenanceModel::data(const QModelIndex& index, int role) const {
  const ProvenanceStep* step = stepAt(index.row());
  if (!step) return {};
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Level: return (index.row() == 0 ? QString() : QStringLiteral("← ")) + step->level.label();
      case Node: return step->node;
      case Op: return step->op;
      case Source: return step->source;
    }
  }
  if (role == Qt::ToolTipRole && index.row() > 0)
    return tr("Show %1 in the %2 program").arg(step->node, step->level.label());
  if (role == Qt::FontRole && index.row() == 0) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  return {};
}

QVariant ProvenanceModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Level: return tr("Level");
    case Node: return tr("Node");
    case Op: return tr("Op");
    case Source: return tr("Source");
  }
  return {};
}

}  // namespace exportlens::ui

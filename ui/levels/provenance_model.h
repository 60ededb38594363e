#pragma once
// The selected node's provenance chain as a table: the node at the shown
// level, then the node it was lowered from at each level above, back to the
// node of the exported (training) program, with op and source line. A row
// names a level and a node, so activating it can show that node there.
#include <QAbstractTableModel>
#include <QList>

#include <functional>

#include <memory>

#include "engine/ir/exported_program.h"
#include "ui/levels/ir_level_choice.h"

namespace exportlens::ui {

struct ProvenanceStep {
  LevelChoice level;
  QString node;    // "addmm", "linear"
  QString op;      // "aten.addmm.default"
  QString source;  // "linear.py:134" (empty if unknown)
};

/// Looks up a level's program, if lowered already (null if not).
using LevelProgramLookup = std::function<std::shared_ptr<const ir::ExportedProgram>(const LevelChoice&)>;

/// `node` of level `level`, then its origins: functional, then training.
QList<ProvenanceStep> provenance_chain(const ir::Node& node, const LevelChoice& level,
                                       const LevelProgramLookup& programs = {});

class ProvenanceModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Level, Node, Op, Source, ColumnCount };

  explicit ProvenanceModel(QObject* parent = nullptr);

  void setChain(QList<ProvenanceStep> chain);
  const QList<ProvenanceStep>& chain() const { return chain_; }
  const ProvenanceStep* stepAt(int row) const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QList<ProvenanceStep> chain_;
};

}  // namespace exportlens::ui

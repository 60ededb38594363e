#pragma once
// The selected node's provenance chain as a table: the node at the shown
// level, then the node it was lowered from at each level above, back to the
// node of the exported (training) program, with op and source line. A row
// names a level and a node, so activating it can show that node there.
#include <QList>

#include <functional>

#include <memory>

#include "engine/ir/exported_program.h"
#include "ui/core/ir_level_choice.h"
#include "ui/core/node_table_model.h"

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

class ProvenanceModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Level, Node, Op, Source, ColumnCount };

  explicit ProvenanceModel(QObject* parent = nullptr);

  void setChain(QList<ProvenanceStep> chain);
  const QList<ProvenanceStep>& chain() const { return chain_; }
  const ProvenanceStep* stepAt(int row) const;

  // Rows name nodes of other levels: no NodeNameRole (activating a row shows its level).
 protected:
  int rows() const override { return static_cast<int>(chain_.size()); }
  QVariant text(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;
  QVariant otherRole(int row, int column, int role) const override;

 private:
  QList<ProvenanceStep> chain_;
};

}  // namespace exportlens::ui

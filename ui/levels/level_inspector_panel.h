#pragma once
// Below the inspector: the selected node's provenance chain (each step
// clickable: shows that node at its level) and "Expand decomposition".
#include <QWidget>

#include "ui/levels/provenance_model.h"

class QLabel;
class QPushButton;
class QTableView;

namespace exportlens::ui {

class LevelInspectorPanel : public QWidget {
  Q_OBJECT
 public:
  explicit LevelInspectorPanel(QWidget* parent = nullptr);

  /// The chain of the selected node (empty: no node selected).
  void setChain(QList<ProvenanceStep> chain, bool expandable);
  ProvenanceModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QPushButton* expandButton() const { return expand_; }

 signals:
  /// A step was clicked: show `node` at `level`.
  void stepActivated(const exportlens::ui::LevelChoice& level, const QString& node);
  /// "Expand decomposition" for the selected node.
  void expandRequested(const QString& node);

 private:
  ProvenanceModel* model_;
  QTableView* table_;
  QLabel* hint_;
  QPushButton* expand_;
};

}  // namespace exportlens::ui

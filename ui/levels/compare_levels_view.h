#pragma once
// The Compare levels tab: two IR levels of the open program side by side
// (Training | Core ATen by default, each pane's level chosen in its combo),
// in the shared side-by-side view (ui/compare). Picking a node in one pane
// selects the nodes it corresponds to in the other (level_relation.h:
// through provenance).
#include "ui/compare/side_by_side_view.h"
#include "ui/core/ir_level_choice.h"

class QComboBox;

namespace exportlens::ui {

class IrLevelController;

class CompareLevelsView : public SideBySideView {
  Q_OBJECT
 public:
  CompareLevelsView(IrLevelController* controller, QWidget* parent = nullptr);

  QComboBox* levelBox(Side side) const { return boxes_[side]; }
  LevelChoice level(Side side) const;

 public slots:
  void setLevel(exportlens::ui::SideBySideView::Side side, const exportlens::ui::LevelChoice& level);
  /// Lowers and lays out both panes' levels (in the background) and shows them.
  void refresh();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void fillBoxes();
  void showPrograms();

  IrLevelController* controller_;
  QComboBox* boxes_[2] = {nullptr, nullptr};
};

}  // namespace exportlens::ui

#pragma once
// Two IR levels of the open program side by side (Training | Core ATen by
// default, each pane's level chosen in its combo). Picking a node in one
// pane selects the nodes it corresponds to in the other (level_relation.h).
// Without a level controller it shows a pair of parts of one program
// instead (two instances of a stack, showPair()), linked by a relation the
// caller gives.
#include <QWidget>

#include <array>
#include <functional>
#include <vector>

#include "ui/core/loaded_program.h"
#include "ui/core/ir_level_choice.h"

class QComboBox;
class QLabel;

namespace exportlens::ui {

class GraphScene;
class GraphView;
class IrLevelController;

class SideBySideView : public QWidget {
  Q_OBJECT
 public:
  /// `controller` may be null: a view for showPair() only (no level boxes).
  SideBySideView(IrLevelController* controller, QWidget* parent = nullptr);

  enum Side { Left = 0, Right = 1 };
  /// The nodes of the other pane that a node of `from`'s pane corresponds to.
  using Relation = std::function<QStringList(Side from, const QString& node)>;
  /// Both panes show `program`, each with its scopes open and in sight (an
  /// instance of a stack: one module call, or several), the captions above
  /// them; picking a node in one selects what `relate` names in the other.
  void showPair(const LoadedProgramPtr& program, std::array<std::vector<int>, 2> scopes,
                std::array<QString, 2> captions, Relation relate);
  GraphScene* scene(Side side) const { return panes_[side].scene; }
  GraphView* view(Side side) const { return panes_[side].view; }
  QComboBox* levelBox(Side side) const { return panes_[side].box; }
  LevelChoice level(Side side) const;
  /// The program a pane shows (null while its level is being lowered).
  LoadedProgramPtr program(Side side) const { return panes_[side].shown; }
  /// The nodes selected in a pane.
  QStringList selectedNodes(Side side) const;

 public slots:
  void setLevel(exportlens::ui::SideBySideView::Side side, const exportlens::ui::LevelChoice& level);
  /// Selects a node in one pane and the corresponding nodes in the other.
  void selectNode(exportlens::ui::SideBySideView::Side side, const QString& name);
  /// Lowers and lays out both panes' levels (in the background) and shows them.
  void refresh();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  struct Pane {
    QComboBox* box = nullptr;
    QLabel* caption = nullptr;
    GraphScene* scene = nullptr;
    GraphView* view = nullptr;
    LoadedProgramPtr shown;
  };
  QWidget* makePane(Side side);
  void fillBoxes();
  void showPrograms();
  void linkFrom(Side side, const QString& name);

  IrLevelController* controller_;
  Pane panes_[2];
  bool linking_ = false;
  Relation relate_;  // showPair()'s; empty: the levels' relation
};

}  // namespace exportlens::ui

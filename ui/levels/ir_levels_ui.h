#pragma once
// The IR-level features of the window, wired to the parts it is given: the
// level switch (toolbar combo, View › IR Level, Ctrl+1…), the provenance
// chain and "Expand decomposition" under the inspector, the node context
// menu, the Op histogram dock and the Compare levels tab. A level shown is
// set on the ProgramModel, which every view follows.
#include <QList>
#include <QObject>

#include "ui/core/loaded_program.h"
#include "ui/core/ir_level_choice.h"

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QMainWindow;
class QMenu;
class QTabWidget;
class QToolBar;

namespace exportlens::ui {

class BusyOverlay;
class GraphScene;
class GraphView;
class HistogramPanel;
class InspectorWidget;
class IrLevelController;
class LevelInspectorPanel;
class NodeExpander;
class ProgramModel;
class CompareLevelsView;

/// What of the window the IR-level features use and where they go.
struct IrLevelsParts {
  QMainWindow* window;          // parent of menus, docks and dialogs; its font sizes the boxes
  ProgramModel* model;
  GraphScene* scene;
  GraphView* view;
  QTabWidget* centralTabs;      // gets the Compare levels tab and the lowering's busy cover
  InspectorWidget* inspector;
  QDockWidget* inspectorDock;   // the provenance panel joins the inspector there
  QDockWidget* histogramBeside; // the Op histogram dock is tabbed with this one
  QDockWidget* frontDock;       // raised again after (the first tab below the canvas)
};

class IrLevelsUi : public QObject {
  Q_OBJECT
 public:
  /// Call once the window's central area and docks exist.
  explicit IrLevelsUi(const IrLevelsParts& parts);

  void addToToolBar(QToolBar* bar);
  void addToViewMenu(QMenu* view);
  /// A program was opened: its training level is shown (the model's programOpened calls it).
  void setTraining(const LoadedProgramPtr& program);
  /// The switch lists every registered table again (after a library registered some).
  void refreshChoices();

  IrLevelController* controller() const { return controller_; }
  QComboBox* levelBox() const { return box_; }
  const QList<QAction*>& levelActions() const { return level_actions_; }
  LevelInspectorPanel* inspectorPanel() const { return panel_; }
  NodeExpander* expander() const { return expander_; }
  HistogramPanel* histogramPanel() const { return histogram_; }
  QDockWidget* histogramDock() const { return histogram_dock_; }
  CompareLevelsView* compareView() const { return compare_; }
  /// The canvas's context menu for a node (the caller owns it).
  QMenu* nodeMenu(const QString& node);

 signals:
  /// A line for the status bar.
  void statusMessage(const QString& text);

 public slots:
  void switchTo(const exportlens::ui::LevelChoice& choice);
  /// Shows `node` at `level` (switching level first if needed).
  void showNodeAt(const exportlens::ui::LevelChoice& level, const QString& node);

 private:
  void createSwitch();
  void createInspectorPanel();
  void createHistogramDock();
  void createCompareTab();
  void connectController();
  void rebuildChoices();
  void onCurrentChanged(const LevelChoice& choice, const LoadedProgramPtr& program);
  void onFailed(const LevelChoice& choice, const QString& message);
  void syncSwitch();
  void updatePanel();
  QString tableFor(const LevelChoice& choice) const;

  IrLevelsParts parts_;
  IrLevelController* controller_;
  BusyOverlay* overlay_;
  QComboBox* box_ = nullptr;
  QMenu* level_menu_ = nullptr;
  QActionGroup* level_group_ = nullptr;
  QList<QAction*> level_actions_;
  LevelInspectorPanel* panel_ = nullptr;
  NodeExpander* expander_ = nullptr;
  HistogramPanel* histogram_ = nullptr;
  QDockWidget* histogram_dock_ = nullptr;
  CompareLevelsView* compare_ = nullptr;
  QString pending_select_;   // selected once the level being switched to is shown
};

}  // namespace exportlens::ui

#pragma once
// The workbench window: a canvas and code tabs in the centre, the inspector
// on the right, and below it tabbed docks (signature, range constraints,
// guards, violations & fixes, dynamic shapes, run), all following one node
// selection. Opening, solving and running work off the GUI thread.
#include <QMainWindow>
#include <QString>

#include <functional>

#include "ui/core/loaded_program.h"
#include "ui/shell/recent_files.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QTableView;
class QTabWidget;

namespace exportlens::ui {

class BusyOverlay;
class CaptureController;
class CompiledController;
class NumericsController;
class DiffWindow;
class CodeView;
class DynamicShapesPanel;
class ExamplesGallery;
class ExportActions;
class GuardsModel;
class GpuRunAction;
class RunPanel;
class StructurePanel;
class RunWorker;
class SpecSession;
class ViolationsPanel;
class FindBar;
class GraphScene;
class GraphView;
class InspectorWidget;
class IrLevelsUi;
class ModulesPanel;
class ProgramLoader;
class ProgramModel;
class RangeConstraintsModel;
class SignatureTableModel;
class TraceController;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // The parts, for tests and for the panels later issues add.
  ProgramModel* programModel() const { return model_; }
  ProgramLoader* loader() const { return loader_; }
  GraphScene* graphScene() const { return scene_; }
  GraphView* graphView() const { return view_; }
  CodeView* codeView() const { return code_; }
  InspectorWidget* inspector() const { return inspector_; }
  QTableView* signatureTable() const { return signature_table_; }
  QTableView* rangeTable() const { return range_table_; }
  QTabWidget* centralTabs() const { return tabs_; }
  SpecSession* specSession() const { return spec_session_; }
  DynamicShapesPanel* dynamicShapesPanel() const { return shapes_panel_; }
  ViolationsPanel* violationsPanel() const { return violations_panel_; }
  QTableView* guardsTable() const { return guards_table_; }
  RunWorker* runWorker() const { return run_worker_; }
  RunPanel* runPanel() const { return run_panel_; }
  /// The Modules dock: the module tree, in step with the canvas.
  ModulesPanel* modulesPanel() const { return modules_panel_; }
  StructurePanel* structurePanel() const { return structure_panel_; }
  /// Asked before a model library is loaded (its code runs in this process);
  /// false leaves it unloaded. The application asks the user (confirm_library_load).
  void setLibraryApproval(std::function<bool(const QString& path)> approval);
  QAction* runAction() const { return run_action_; }
  GpuRunAction* gpuRunAction() const { return gpu_run_action_; }
  QComboBox* toolbarDeviceBox() const { return toolbar_device_; }
  /// The IR-level switch, provenance, expansions, histogram and compare tab (ir_levels_ui.h).
  IrLevelsUi* irLevels() const { return ir_levels_; }
  /// Captured Python exports: the Export attempts dock, File › Capture Python Export….
  CaptureController* captureController() const { return capture_; }
  NumericsController* numericsController() const { return numerics_; }
  /// Compiled models: what an archive holds, its program switch, the Compiled model dock, sources, runs.
  CompiledController* compiledController() const { return compiled_; }
  /// C++ models: the Examples page (the start page), Open C++ Model…, re-trace (trace_controller.h).
  TraceController* traceController() const { return trace_; }
  ExamplesGallery* examplesGallery() const;
  QAction* openModelAction() const;
  /// File › Save As… and File › Export (ui/export/export_actions.h).
  ExportActions* exportActions() const { return export_actions_; }
  /// The status bar's text, and its dynamic-shapes verdict ("ok", "2 violations").
  QString statusText() const;
  QString shapesStatusText() const;
  bool isLoading() const;
  void showStatus(const QString& text);
  /// Opens a diff window: the program on screen (as shown, at its IR level) beside `path`'s.
  DiffWindow* compareWithFile(const QString& path);

 public slots:
  void openFile(const QString& path);
  /// Opens `program` of the archive `path` ("" = its default); for a package
  /// without its program, links `programFile` once it is open ("" = none).
  void openArchive(const QString& path, const QString& program, const QString& programFile = QString());
  void openBuiltinExample();
  void reload();
  void showOpenDialog();
  /// File › Compare With File…: asks for a program and diffs the one on screen against it.
  void showCompareDialog();
  /// Traces a model library's model; with several and no `model`, asks which.
  void openModelLibrary(const QString& path, const QString& model = QString());
  /// Traces the model on screen again with the Dynamic shapes dock's spec.
  void retraceWithShapesSpec();

 signals:
  /// A program finished loading and is on screen.
  void programShown(const QString& path);
  /// Opening `path` failed; the previous program (if any) is still shown.
  void loadFailed(const QString& path, const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void changeEvent(QEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createCentralArea();
  void createDocks();
  void createShapesDocks();
  void createRunDock();
  void createModulesDock();
  void createActions();
  void createMenus();
  void createToolBar();
  void createStatusBar();
  void connectSelection();
  void connectLoader();
  void connectShapes();
  void restoreWindowState();
  void rebuildRecentMenu();
  void open(const QString& path, const QString& displayName, bool remember);
  void createTraceController();
  void createCaptureController();
  void createNumericsController();
  void createCompiledController();
  /// Opens one program of an archive (the program switch, a linked program file).
  void openProgramOf(const QString& path, const QString& program, const QString& displayName);
  /// The error box of a file that could not be opened.
  void showLoadError(const QString& path, const QString& message);

  void onLoadStarted(const QString& path);
  void onLoaded(const LoadedProgramPtr& program);
  /// The status line of the program shown, with the depth the canvas draws now (stacks folded, scopes opened).
  void showShownDepth();
  void onLoadFailed(const QString& path, const QString& message);
  void onLoadCancelled(const QString& path);
  void updateTitle();

  ProgramModel* model_;
  ProgramLoader* loader_;
  RecentFiles recent_;
  QString pending_display_name_;
  bool pending_remember_ = false;
  QString reselect_after_load_;
  TraceController* trace_ = nullptr;
  CaptureController* capture_ = nullptr;
  NumericsController* numerics_ = nullptr;
  CompiledController* compiled_ = nullptr;

  QTabWidget* tabs_ = nullptr;
  GraphScene* scene_ = nullptr;
  GraphView* view_ = nullptr;
  CodeView* code_ = nullptr;
  BusyOverlay* overlay_ = nullptr;
  InspectorWidget* inspector_ = nullptr;
  SignatureTableModel* signature_model_ = nullptr;
  RangeConstraintsModel* range_model_ = nullptr;
  QTableView* signature_table_ = nullptr;
  QTableView* range_table_ = nullptr;
  FindBar* find_bar_ = nullptr;
  QDockWidget* inspector_dock_ = nullptr;
  QDockWidget* signature_dock_ = nullptr;
  QDockWidget* range_dock_ = nullptr;
  SpecSession* spec_session_ = nullptr;
  GuardsModel* guards_model_ = nullptr;
  QTableView* guards_table_ = nullptr;
  DynamicShapesPanel* shapes_panel_ = nullptr;
  ViolationsPanel* violations_panel_ = nullptr;
  RunWorker* run_worker_ = nullptr;
  RunPanel* run_panel_ = nullptr;
  StructurePanel* structure_panel_ = nullptr;
  QDockWidget* structure_dock_ = nullptr;
  QDockWidget* guards_dock_ = nullptr;
  QDockWidget* violations_dock_ = nullptr;
  QDockWidget* shapes_dock_ = nullptr;
  QDockWidget* run_dock_ = nullptr;
  ModulesPanel* modules_panel_ = nullptr;
  QDockWidget* modules_dock_ = nullptr;

  QMenu* recent_menu_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QAction* open_action_ = nullptr;
  QAction* compare_action_ = nullptr;
  QAction* reload_action_ = nullptr;
  QAction* quit_action_ = nullptr;
  QAction* fit_action_ = nullptr;
  QAction* zoom_in_action_ = nullptr;
  QAction* zoom_out_action_ = nullptr;
  QAction* zoom_reset_action_ = nullptr;
  QAction* find_action_ = nullptr;
  QAction* example_action_ = nullptr;
  QAction* run_action_ = nullptr;
  GpuRunAction* gpu_run_action_ = nullptr;
  QAction* undo_action_ = nullptr;
  QAction* redo_action_ = nullptr;
  QComboBox* toolbar_device_ = nullptr;
  IrLevelsUi* ir_levels_ = nullptr;
  ExportActions* export_actions_ = nullptr;

  QLabel* status_label_ = nullptr;
  QString opened_status_;  // "name: N nodes, M module calls, opened in S s" of the program shown
  QLabel* zoom_label_ = nullptr;
  QLabel* shapes_label_ = nullptr;
};

}  // namespace exportlens::ui

#include "ui/shell/main_window.h"

#include "ui/capture/capture_controller.h"
#include "ui/capture/capture_session.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>

#include "engine/sources/program_source.h"

#include "ui/canvas/canvas_palette.h"
#include "ui/canvas/colour_legend.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/busy_overlay.h"
#include "ui/core/data_table.h"
#include "ui/core/program_loader.h"
#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"
#include "ui/core/selection_link.h"
#include "ui/compiled/compiled_controller.h"
#include "ui/compiled/compiled_model_panel.h"
#include "ui/compiled/compiled_session.h"
#include "ui/compiled/kernel_overlay.h"
#include "ui/compiled/program_switch.h"
#include "ui/diff/diff_window.h"
#include "ui/export/export_actions.h"
#include "ui/levels/ir_levels_ui.h"
#include "ui/numerics/numerics_controller.h"
#include "ui/program_views/code_view.h"
#include "ui/program_views/find_bar.h"
#include "ui/program_views/inspector_widget.h"
#include "ui/program_views/modules_panel.h"
#include "ui/program_views/range_constraints_model.h"
#include "ui/program_views/signature_table_model.h"
#include "ui/run/gpu_run_action.h"
#include "ui/run/heat_legend.h"
#include "ui/run/run_panel.h"
#include "ui/run/run_worker.h"
#include "ui/shell/activity_indicator.h"
#include "ui/shapes/dynamic_shapes_panel.h"
#include "ui/shapes/guards_model.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/violations_panel.h"
#include "ui/shell/builtin_example.h"
#include "ui/shell/source_dialogs.h"
#include "ui/shell/trace_controller.h"
#include "ui/structure/canvas_stacks.h"
#include "ui/structure/stack_marks.h"
#include "ui/structure/structure_panel.h"

namespace exportlens::ui {
namespace {

constexpr char kGeometryKey[] = "mainWindow/geometry";
constexpr char kStateKey[] = "mainWindow/state";
constexpr char kLastDirKey[] = "mainWindow/lastDirectory";

QDockWidget* make_dock(const QString& title, const QString& object_name, QWidget* content, QWidget* parent) {
  auto* dock = new QDockWidget(title, parent);
  dock->setObjectName(object_name);  // saveState() needs it
  dock->setWidget(content);
  return dock;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), model_(new ProgramModel(this)), loader_(new ProgramLoader(this)) {
  setAcceptDrops(true);
  setDockNestingEnabled(true);
  spec_session_ = new SpecSession(this);
  run_worker_ = new RunWorker(this);
  createCentralArea();
  createDocks();
  ir_levels_ = new IrLevelsUi(
      {this, model_, scene_, view_, tabs_, inspector_, inspector_dock_, run_dock_, signature_dock_});
  connect(ir_levels_, &IrLevelsUi::statusMessage, this, &MainWindow::showStatus);
  createActions();
  createTraceController();
  createCaptureController();
  createNumericsController();
  createCompiledController();
  createMenus();
  createToolBar();
  createStatusBar();
  connectSelection();
  connectLoader();
  connectShapes();
  scene_->setStyle(palette(), font());
  restoreWindowState();
  updateTitle();
}

MainWindow::~MainWindow() = default;

bool MainWindow::isLoading() const { return loader_->isBusy(); }

QString MainWindow::statusText() const { return status_label_->text(); }

QString MainWindow::shapesStatusText() const { return spec_session_->stateText(); }

void MainWindow::showStatus(const QString& text) { status_label_->setText(text); }

// ---- construction ---------------------------------------------------------

void MainWindow::createCentralArea() {
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  scene_ = new GraphScene(this);
  view_ = new GraphView(tabs_);
  view_->setScene(scene_);
  code_ = new CodeView(tabs_);
  tabs_->addTab(view_, tr("Graph"));
  tabs_->addTab(code_, tr("Code"));
  setCentralWidget(tabs_);
  overlay_ = new BusyOverlay(tabs_);
}

void MainWindow::createDocks() {
  inspector_ = new InspectorWidget(this);
  inspector_dock_ = make_dock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector_, this);
  addDockWidget(Qt::RightDockWidgetArea, inspector_dock_);

  signature_model_ = new SignatureTableModel(this);
  signature_table_ = make_data_table(signature_model_, QStringLiteral("signatureTable"), this);
  signature_dock_ = make_dock(tr("Graph signature"), QStringLiteral("signatureDock"), signature_table_, this);
  addDockWidget(Qt::BottomDockWidgetArea, signature_dock_);

  range_model_ = new RangeConstraintsModel(this);
  range_table_ = make_data_table(range_model_, QStringLiteral("rangeConstraintsTable"), this);
  range_dock_ = make_dock(tr("Range constraints"), QStringLiteral("rangeConstraintsDock"), range_table_, this);
  addDockWidget(Qt::BottomDockWidgetArea, range_dock_);
  createShapesDocks();
  createRunDock();
  createModulesDock();
  structure_panel_ = new StructurePanel(this);
  structure_dock_ = make_dock(tr("Repeated structure"), QStringLiteral("structureDock"), structure_panel_, this);
  addDockWidget(Qt::BottomDockWidgetArea, structure_dock_);
  // One tab group below the canvas, in the order of UI-SKETCH.md.
  QDockWidget* previous = signature_dock_;
  for (QDockWidget* dock : {range_dock_, guards_dock_, violations_dock_, shapes_dock_, run_dock_, structure_dock_}) {
    tabifyDockWidget(previous, dock);
    previous = dock;
  }
  signature_dock_->raise();
  resizeDocks({inspector_dock_}, {380}, Qt::Horizontal);
  resizeDocks({signature_dock_}, {250}, Qt::Vertical);
}

void MainWindow::createShapesDocks() {
  guards_model_ = new GuardsModel(this);
  guards_table_ = make_data_table(guards_model_, QStringLiteral("guardsTable"), this);
  guards_dock_ = make_dock(tr("Guards"), QStringLiteral("guardsDock"), guards_table_, this);
  addDockWidget(Qt::BottomDockWidgetArea, guards_dock_);

  violations_panel_ = new ViolationsPanel(spec_session_, this);
  // Not "&": dock tabs read it as a mnemonic and title bars do not, so no spelling shows right in both.
  violations_dock_ = make_dock(tr("Violations and fixes"), QStringLiteral("violationsDock"), violations_panel_, this);
  addDockWidget(Qt::BottomDockWidgetArea, violations_dock_);

  shapes_panel_ = new DynamicShapesPanel(spec_session_, this);
  shapes_dock_ = make_dock(tr("Dynamic shapes"), QStringLiteral("dynamicShapesDock"), shapes_panel_, this);
  addDockWidget(Qt::BottomDockWidgetArea, shapes_dock_);
}

void MainWindow::createRunDock() {
  run_panel_ = new RunPanel(run_worker_, this);
  run_dock_ = make_dock(tr("Run"), QStringLiteral("runDock"), run_panel_, this);
  addDockWidget(Qt::BottomDockWidgetArea, run_dock_);
  connect(run_panel_->heatAction(), &QAction::toggled, scene_, &GraphScene::setHeatShown);
  connect(run_panel_, &RunPanel::runFactsChanged, inspector_, &InspectorWidget::setRunFacts);
  const CanvasPalette heat(palette());
  new HeatLegend(view_, model_, run_panel_, heat.heatFill(palette().base().color(), 0), heat.heatFill(palette().base().color(), 1));
}

void MainWindow::createModulesDock() {
  modules_panel_ = new ModulesPanel(this);
  modules_dock_ = make_dock(tr("Modules"), QStringLiteral("modulesDock"), modules_panel_, this);
  addDockWidget(Qt::LeftDockWidgetArea, modules_dock_);
  resizeDocks({modules_dock_}, {300}, Qt::Horizontal);
}

void MainWindow::createActions() {
  open_action_ = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
  open_action_->setShortcut(QKeySequence::Open);
  open_action_->setToolTip(tr("Open a .pt2 archive (Ctrl+O)"));
  connect(open_action_, &QAction::triggered, this, &MainWindow::showOpenDialog);

  compare_action_ = new QAction(tr("Compare With &File…"), this);
  compare_action_->setObjectName(QStringLiteral("compareWithFileAction"));
  compare_action_->setToolTip(tr("Put another program beside this one and show what changed"));
  compare_action_->setEnabled(false);
  connect(compare_action_, &QAction::triggered, this, &MainWindow::showCompareDialog);

  reload_action_ = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload"), this);
  reload_action_->setShortcut(QKeySequence(Qt::Key_F5));
  reload_action_->setToolTip(tr("Read the file again (F5)"));
  connect(reload_action_, &QAction::triggered, this, &MainWindow::reload);

  example_action_ = new QAction(tr("Open &Example"), this);
  connect(example_action_, &QAction::triggered, this, &MainWindow::openBuiltinExample);

  quit_action_ = new QAction(tr("&Quit"), this);
  quit_action_->setShortcut(QKeySequence::Quit);
  quit_action_->setMenuRole(QAction::QuitRole);
  connect(quit_action_, &QAction::triggered, this, &QWidget::close);

  fit_action_ = new QAction(tr("&Fit to Window"), this);
  fit_action_->setShortcut(QKeySequence(Qt::Key_F));
  fit_action_->setToolTip(tr("Show the whole graph (F)"));
  connect(fit_action_, &QAction::triggered, view_, &GraphView::fitAll);

  zoom_in_action_ = new QAction(tr("Zoom &In"), this);
  zoom_in_action_->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
  connect(zoom_in_action_, &QAction::triggered, view_, &GraphView::zoomIn);

  zoom_out_action_ = new QAction(tr("Zoom &Out"), this);
  zoom_out_action_->setShortcut(QKeySequence::ZoomOut);
  connect(zoom_out_action_, &QAction::triggered, view_, &GraphView::zoomOut);

  zoom_reset_action_ = new QAction(tr("&Actual Size"), this);
  zoom_reset_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  connect(zoom_reset_action_, &QAction::triggered, view_, &GraphView::resetZoom);

  find_action_ = new QAction(tr("&Find Node…"), this);
  find_action_->setShortcut(QKeySequence::Find);

  run_action_ = new QAction(QStringLiteral("▶ ") + tr("Run on"), this);
  run_action_->setObjectName(QStringLiteral("runAction"));
  run_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run_action_->setToolTip(tr("Run the program on the chosen device (Ctrl+R)"));
  run_action_->setEnabled(false);
  connect(run_action_, &QAction::triggered, this, [this] {
    run_dock_->show();
    run_dock_->raise();
    run_panel_->runNow();
  });

  // Ctrl+Z / Ctrl+Shift+Z undo spec edits (text fields keep their own undo while focused).
  QUndoStack* spec_history = spec_session_->document()->undoStack();
  undo_action_ = spec_history->createUndoAction(this, tr("&Undo Spec Edit"));
  undo_action_->setShortcut(QKeySequence::Undo);
  redo_action_ = spec_history->createRedoAction(this, tr("&Redo Spec Edit"));
  redo_action_->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  addActions({open_action_, reload_action_, quit_action_, fit_action_, zoom_in_action_, zoom_out_action_,
              zoom_reset_action_, find_action_, run_action_, undo_action_, redo_action_});
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(open_action_);
  file->addAction(trace_->openModelAction());
  file->addAction(capture_->openFolderAction());
  file->addAction(capture_->captureAction());
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  file->addAction(example_action_);
  file->addAction(reload_action_);
  file->addSeparator();
  file->addAction(compare_action_);
  file->addAction(compiled_->linkAction());
  file->addSeparator();
  export_actions_ = new ExportActions(model_, view_, this);  // Save As…, Export ›
  connect(export_actions_, &ExportActions::message, this, &MainWindow::showStatus);
  file->addAction(export_actions_->saveAsAction());
  file->addMenu(export_actions_->exportMenu());
  file->addSeparator();
  file->addAction(quit_action_);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undo_action_);
  edit->addAction(redo_action_);

  view_menu_ = menuBar()->addMenu(tr("&View"));
  view_menu_->addAction(fit_action_);
  view_menu_->addAction(zoom_in_action_);
  view_menu_->addAction(zoom_out_action_);
  view_menu_->addAction(zoom_reset_action_);
  view_menu_->addSeparator();
  view_menu_->addAction(find_action_);
  view_->addBrowseMenu(view_menu_);
  view_menu_->addSeparator();
  ir_levels_->addToViewMenu(view_menu_);
  view_menu_->addSeparator();
  add_colour_legend(view_menu_, scene_);
  view_menu_->addSeparator();
  view_menu_->addAction(inspector_dock_->toggleViewAction());
  view_menu_->addAction(modules_dock_->toggleViewAction());
  view_menu_->addAction(signature_dock_->toggleViewAction());
  view_menu_->addAction(range_dock_->toggleViewAction());
  view_menu_->addAction(guards_dock_->toggleViewAction());
  view_menu_->addAction(violations_dock_->toggleViewAction());
  view_menu_->addAction(shapes_dock_->toggleViewAction());
  view_menu_->addAction(run_dock_->toggleViewAction());
  view_menu_->addAction(structure_dock_->toggleViewAction());
  view_menu_->addAction(capture_->dock()->toggleViewAction());
  view_menu_->addAction(numerics_->dock()->toggleViewAction());
  view_menu_->addAction(compiled_->dock()->toggleViewAction());
  view_menu_->addSeparator();
  view_menu_->addAction(run_panel_->heatAction());
  view_menu_->addAction(compiled_->overlay()->action());
  view_menu_->addAction(numerics_->valuesAction());

  trace_->addExamplesMenu(menuBar());
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(run_action_);
  run->addAction(compiled_->runAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About ExportLens"), this, [this] {
    QMessageBox::about(this, tr("About ExportLens"),
                       tr("<b>ExportLens</b><br/>A workbench for torch.export programs: browse the "
                          "graph, its symbolic shapes and signature."));
  });
}

void MainWindow::createToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolBar"));
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(open_action_);
  bar->addAction(reload_action_);
  bar->addSeparator();
  bar->addAction(fit_action_);
  bar->addAction(zoom_out_action_);
  bar->addAction(zoom_in_action_);
  bar->addSeparator();
  // "▶ Run on [CPU|GPU]": the combo shares the Run dock's devices and choice.
  bar->addAction(run_action_);
  toolbar_device_ = new QComboBox(bar);
  toolbar_device_->setObjectName(QStringLiteral("toolbarDevice"));
  toolbar_device_->setModel(run_panel_->deviceBox()->model());
  toolbar_device_->setCurrentIndex(run_panel_->deviceBox()->currentIndex());
  connect(toolbar_device_, &QComboBox::currentIndexChanged, run_panel_->deviceBox(), &QComboBox::setCurrentIndex);
  connect(run_panel_->deviceBox(), &QComboBox::currentIndexChanged, toolbar_device_, &QComboBox::setCurrentIndex);
  bar->addWidget(toolbar_device_);
  gpu_run_action_ = new GpuRunAction(this);  // one click; disabled with the reason and the fix where no GPU runs
  gpu_run_action_->follow(model_);
  connect(gpu_run_action_, &QAction::triggered, this, [this] { run_dock_->show(); run_dock_->raise(); run_panel_->runOn(QStringLiteral("cuda")); });
  bar->addAction(gpu_run_action_);
  ir_levels_->addToToolBar(bar);
  // The program switch of an archive that holds several (what it holds is said in the status bar).
  compiled_->programSwitch()->setToolBarAction(bar->addWidget(compiled_->programSwitch()));
  auto* spacer = new QWidget(bar);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(spacer);
  find_bar_ = new FindBar(bar);
  bar->addWidget(find_bar_);
  connect(find_action_, &QAction::triggered, find_bar_, &FindBar::activate);
  connect(find_bar_, &FindBar::dismissed, this, [this] { tabs_->currentWidget()->setFocus(); });
}

void MainWindow::createStatusBar() {
  status_label_ = new QLabel(this);
  status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statusBar()->addWidget(status_label_, 1);
  auto* activity = new ActivityIndicator(statusBar(), loader_, run_worker_);
  connect(activity, &ActivityIndicator::message, this, &MainWindow::showStatus);
  statusBar()->addPermanentWidget(compiled_->programSwitch()->kindLabel());  // "multi.pt2: 2 exported programs"
  shapes_label_ = new QLabel(this);
  shapes_label_->setObjectName(QStringLiteral("shapesStatus"));
  shapes_label_->setToolTip(tr("The dynamic_shapes spec, re-solved after each edit"));
  statusBar()->addPermanentWidget(shapes_label_);
  zoom_label_ = new QLabel(this);
  zoom_label_->setMinimumWidth(zoom_label_->fontMetrics().horizontalAdvance(QStringLiteral("Zoom 888 %")));
  statusBar()->addPermanentWidget(zoom_label_);
  connect(view_, &GraphView::zoomChanged, this,
          [this](qreal zoom) { zoom_label_->setText(tr("Zoom %1 %").arg(qRound(zoom * 100))); });
  zoom_label_->setText(tr("Zoom 100 %"));
}

// ---- one selection --------------------------------------------------------

void MainWindow::connectSelection() {
  // Each view follows the model itself; the scene before the view, whose
  // first look at a new program needs the scene's layout.
  scene_->follow(model_);
  view_->follow(model_, scene_);
  code_->follow(model_);
  modules_panel_->follow(model_, scene_);
  inspector_->follow(model_);
  find_bar_->follow(model_);
  signature_model_->follow(model_);
  range_model_->follow(model_);
  guards_model_->follow(model_);
  spec_session_->follow(model_);
  run_panel_->follow(model_);
  structure_panel_->follow(model_);
  auto* stacks = new CanvasStacks(scene_, view_, structure_panel_, this);  // stacks drawn as one box, Compare with…
  connect(scene_, &GraphScene::pictureChanged, this, &MainWindow::showShownDepth);
  view_menu_->insertAction(view_menu_->actions().value(view_menu_->actions().indexOf(find_action_) + 1),
                           stacks->foldAction());
  new StackMarks(scene_, structure_panel_, model_, this);  // instance badges and counterpart rings on the canvas
  connect(model_, &ProgramModel::programOpened, run_action_, [this] { run_action_->setEnabled(true); });
  connect(model_, &ProgramModel::programChanged, signature_table_, &QTableView::resizeColumnsToContents);
  connect(model_, &ProgramModel::programChanged, range_table_, &QTableView::resizeColumnsToContents);
  link_selection(signature_table_, model_);
  link_selection(guards_table_, model_);
  // Panels name a node only when their row has one (a spec-level violation has none).
  auto select_named = [this](const QString& node) {
    if (!node.isEmpty()) model_->selectNode(node);
  };
  connect(violations_panel_, &ViolationsPanel::nodeActivated, this, select_named);
  connect(shapes_panel_, &DynamicShapesPanel::nodeActivated, this, select_named);
  connect(run_panel_, &RunPanel::nodeActivated, this, select_named);
  connect(model_, &ProgramModel::selectionChanged, run_panel_, &RunPanel::showSelectedNode);
}

// ---- loading --------------------------------------------------------------

void MainWindow::connectLoader() {
  connect(loader_, &ProgramLoader::started, this, &MainWindow::onLoadStarted);
  connect(loader_, &ProgramLoader::progress, overlay_, &BusyOverlay::setProgress);
  connect(loader_, &ProgramLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &ProgramLoader::failed, this, &MainWindow::onLoadFailed);
  connect(loader_, &ProgramLoader::cancelled, this, &MainWindow::onLoadCancelled);
  connect(overlay_, &BusyOverlay::cancelRequested, loader_, &ProgramLoader::cancel);
}

void MainWindow::createTraceController() {
  trace_ = new TraceController({this, loader_, tabs_, view_, overlay_, spec_session_, violations_panel_,
                                violations_dock_, ir_levels_,
                                [this](const QString& path, const QString& name, bool remember) {
                                  open(path, name, remember);
                                }});
  connect(trace_, &TraceController::statusMessage, this, &MainWindow::showStatus);
  connect(trace_, &TraceController::loadFailed, this, &MainWindow::loadFailed);
  connect(trace_, &TraceController::openFileRequested, this, &MainWindow::showOpenDialog);
  connect(trace_, &TraceController::builtinExampleRequested, this, &MainWindow::openBuiltinExample);
}

void MainWindow::createCaptureController() {
  capture_ = new CaptureController({this, loader_, model_, spec_session_, [this](const QString& text) { showStatus(text); }});
  // Beside the inspector, the full height of the right side: an attempt has a lot to say.
  tabifyDockWidget(inspector_dock_, capture_->dock());
  inspector_dock_->raise();
  connect(capture_, &CaptureController::opening, this, [this] { resizeDocks({capture_->dock()}, {560}, Qt::Horizontal); });
  connect(capture_, &CaptureController::specChanged, this, [this] {
    shapes_dock_->show();
    shapes_dock_->raise();
  });
}

void MainWindow::createNumericsController() {
  numerics_ = new NumericsController({this, model_, scene_, [this](const QString& text) { showStatus(text); }});
  // Beside Run: both run the program; numerics compares two runs node by node.
  addDockWidget(Qt::BottomDockWidgetArea, numerics_->dock());
  tabifyDockWidget(run_dock_, numerics_->dock());
  run_dock_->raise();
  connect(inspector_, &InspectorWidget::tensorViewerRequested, numerics_, &NumericsController::showValues);
  // A weight's row in the signature table opens its values.
  connect(signature_table_, &QTableView::doubleClicked, numerics_, [this](const QModelIndex& index) {
    numerics_->showValues(index.data(NodeNameRole).toString());
  });
}

void MainWindow::createCompiledController() {
  compiled_ = new CompiledController({this, model_, scene_, view_, tabs_, inspector_,
                                      [this](const QString& path, const QString& program, const QString& name) {
                                        openProgramOf(path, program, name);
                                      },
                                      [this](const QString& text) { showStatus(text); },
                                      [this](const QString& path, const QString& message) { showLoadError(path, message); }});
  // Below the canvas, beside Run and Numerics: its kernels table is wide.
  addDockWidget(Qt::BottomDockWidgetArea, compiled_->dock());
  tabifyDockWidget(numerics_->dock(), compiled_->dock());
  compiled_->dock()->hide();  // shown when an archive holds a compiled model
  run_dock_->raise();  // the tab shown before, as createNumericsController left it
  connect(compiled_, &CompiledController::compiledOnlyShown, this, [this] {
    overlay_->stop();
    updateTitle();
  });
}

void MainWindow::openProgramOf(const QString& path, const QString& program, const QString& displayName) {
  pending_display_name_ = displayName.isEmpty() ? QFileInfo(path).fileName() : displayName;
  pending_remember_ = false;
  loader_->setNodeFont(font());
  loader_->setReader(pt2_reader(program));
  loader_->load(path, pending_display_name_);
  loader_->setReader(pt2_reader());  // the load under way keeps the reader it started with
}

ExamplesGallery* MainWindow::examplesGallery() const { return trace_->gallery(); }
QAction* MainWindow::openModelAction() const { return trace_->openModelAction(); }
void MainWindow::setLibraryApproval(std::function<bool(const QString&)> approval) {
  trace_->setLibraryApproval(std::move(approval));
}
void MainWindow::openModelLibrary(const QString& path, const QString& model) { trace_->openModelLibrary(path, model); }
void MainWindow::retraceWithShapesSpec() { trace_->retraceWithShapesSpec(); }

void MainWindow::openFile(const QString& path) {
  switch (source_kind(path)) {
    case sources::SourceKind::ModelLibrary: return trace_->openModelLibrary(path);  // asks first: it runs code
    case sources::SourceKind::BuiltinExample: return trace_->openExample(path.mid(int(strlen(sources::kExampleScheme))));
    case sources::SourceKind::Capture:
    case sources::SourceKind::TraceLog:  // opening reads them; it never runs the script
      recent_.add(path);
      return capture_->open(path);
    default: break;
  }
  open(path, QString(), true);
}

void MainWindow::openArchive(const QString& path, const QString& program, const QString& programFile) {
  compiled_->fileOpening(path, program, programFile);
  openProgramOf(path, program, program.isEmpty() ? QString() : tr("%1 › %2").arg(QFileInfo(path).fileName(), program));
  pending_remember_ = true;
}

void MainWindow::openBuiltinExample() {
  const QString path = builtin_example_file();
  if (path.isEmpty()) {
    status_label_->setText(tr("No built-in example is available; use File › Open."));
    return;
  }
  open(path, tr("dynamic_model.pt2 (example)"), false);
}

void MainWindow::reload() {
  if (!model_->loaded()) {
    // A package of compiled code only, shown without a graph: read it again.
    if (const QString archive = compiled_->session()->archivePath(); compiled_->session()->compiledOnly())
      open(archive, QString(), false);
    return;
  }
  reselect_after_load_ = model_->selectedName();
  if (trace_->retraceShown()) return;  // a traced model: traced again
  if (compiled_->reloadShown()) return;  // the program chosen of an archive with several
  const LoadedProgramPtr& current = model_->loaded();
  if (const AttemptRow* attempt = capture_->session()->currentRow(); attempt && attempt->source == current->path) {
    capture_->open(current->path, attempt->attempt->index);  // the capture read again, on the same attempt
    return;
  }
  open(current->path, current->displayName, false);
}

void MainWindow::showOpenDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open exported program"),
                                                    settings.value(kLastDirKey).toString(),
                                                    open_filter());
  if (path.isEmpty()) return;
  settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::showCompareDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Compare with"), settings.value(kLastDirKey).toString(),
                                                    file_filter(sources::SourceKind::ExportedProgram));
  if (path.isEmpty()) return;
  settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
  compareWithFile(path);
}

DiffWindow* MainWindow::compareWithFile(const QString& path) {
  if (!model_->loaded()) return nullptr;
  auto* window = new DiffWindow(this);
  window->setWindowFlag(Qt::Window);
  window->compareWithFile(model_->loaded(), path);  // the program as shown, at its level
  window->show();
  return window;
}

void MainWindow::open(const QString& path, const QString& displayName, bool remember) {
  compiled_->fileOpening(path);  // what the archive holds: programs, compiled models
  pending_display_name_ = displayName.isEmpty() ? QFileInfo(path).fileName() : displayName;
  pending_remember_ = remember;
  loader_->setNodeFont(font());
  loader_->load(path, pending_display_name_);
}

void MainWindow::showShownDepth() {
  const QString text = status_label_->text();
  if (opened_status_.isEmpty() || !(text.isEmpty() || text.startsWith(opened_status_))) return;
  status_label_->setText(tr("%1, shown to depth %2").arg(opened_status_).arg(scene_->shownDepth()));
}

void MainWindow::onLoadStarted(const QString&) {
  opened_status_.clear();
  overlay_->start(tr("Opening %1").arg(pending_display_name_));
  status_label_->setText(tr("Opening %1…").arg(pending_display_name_));
}


void MainWindow::onLoaded(const LoadedProgramPtr& program) {
  overlay_->stop();
  if (pending_remember_) recent_.add(program->path);
  model_->setOpened(program);  // every view and panel follows the model
  updateTitle();
  const int calls = int(program->hierarchy->size()) - 1;
  opened_status_ = tr("%1: %2 nodes, %n module call(s), opened in %3 s", nullptr, calls)
                      .arg(program->displayName)
                      .arg(program->graph().size())
                      .arg(program->seconds, 0, 'f', 2);
  status_label_->clear();
  showShownDepth();
  if (!reselect_after_load_.isEmpty()) model_->selectNode(reselect_after_load_);
  reselect_after_load_.clear();
  emit programShown(program->path);
}


// ---- dynamic shapes -------------------------------------------------------

void MainWindow::connectShapes() {
  auto show_state = [this] {
    const QString text = spec_session_->stateText();
    shapes_label_->setText(text.isEmpty() ? QString() : tr("Shapes: %1").arg(text));
  };
  connect(spec_session_, &SpecSession::stateChanged, this, show_state);
  connect(spec_session_, &SpecSession::resultChanged, this, show_state);
  connect(model_, &ProgramModel::solveChanged, guards_table_,
          [this] { guards_table_->resizeColumnToContents(GuardsModel::Guard); });
  connect(range_model_, &RangeConstraintsModel::titleChanged, range_dock_, &QDockWidget::setWindowTitle);
  connect(violations_panel_, &ViolationsPanel::message, this, &MainWindow::showStatus);
}

void MainWindow::onLoadFailed(const QString& path, const QString& message) {
  overlay_->stop();
  reselect_after_load_.clear();
  if (trace_->showFailure(path, message)) {  // shown on the Examples page or in its own dialog
    emit loadFailed(path, message);
    return;
  }
  if (compiled_->explainsFailure(path, message)) return;  // compiled code only: shown without a graph
  showLoadError(path, message);
}

void MainWindow::showLoadError(const QString& path, const QString& message) {
  status_label_->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
  // Not exec(): the window stays responsive (and scriptable in tests).
  auto* box = new QMessageBox(QMessageBox::Critical, tr("Could not open file"),
                              tr("Could not open %1.").arg(QFileInfo(path).fileName()), QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("loadErrorBox"));
  box->setInformativeText(message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  emit loadFailed(path, message);
}

void MainWindow::onLoadCancelled(const QString& path) {
  overlay_->stop();
  reselect_after_load_.clear();
  status_label_->setText(tr("Cancelled opening %1").arg(QFileInfo(path).fileName()));
}

void MainWindow::updateTitle() {
  const LoadedProgramPtr& loaded = model_->loaded();
  const QString archive = compiled_ ? compiled_->shownArchiveName() : QString();
  setWindowTitle(loaded ? tr("%1 — ExportLens").arg(loaded->displayName)
                        : archive.isEmpty() ? tr("ExportLens") : tr("%1 — ExportLens").arg(archive));
  reload_action_->setEnabled(loaded != nullptr || !archive.isEmpty());
  compare_action_->setEnabled(loaded != nullptr);
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  const QStringList files = recent_.files();
  for (const QString& path : files) {
    QAction* action = recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); });
    action->setToolTip(path);
    action->setStatusTip(path);
  }
  if (files.isEmpty()) recent_menu_->addAction(tr("(none)"))->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction(tr("Clear Menu"), this, [this] { recent_.clear(); })->setEnabled(!files.isEmpty());
}

// ---- window habits --------------------------------------------------------

void MainWindow::restoreWindowState() {
  QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) resize(1400, 880);
  restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  loader_->cancel();
  run_worker_->cancel();
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
  QMainWindow::closeEvent(event);
}

void MainWindow::changeEvent(QEvent* event) {
  QMainWindow::changeEvent(event);
  // Colours follow the system's light/dark palette. (Fonts stay: the layout
  // sized the boxes for the font the program was opened with.)
  if (event->type() == QEvent::PaletteChange) scene_->setStyle(palette(), font());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (std::any_of(urls.begin(), urls.end(), is_program_source)) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (is_program_source(url)) {
      event->acceptProposedAction();
      openFile(url.toLocalFile());
      return;
    }
  }
}

}  // namespace exportlens::ui

#pragma once
// C++ models as a way of opening programs: the Examples page (the start
// page) and menu, File › Open C++ Model…, tracing through the loader
// (trace_job.h), re-tracing with the Dynamic shapes dock's spec. Success
// shows the program like an opened .pt2; a failure shows torch's error on the
// Examples page (examples) or in a dialog (model libraries), keeps the window
// as it was, and puts torch's violations and fixes in the Violations dock.
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

#include "ui/core/loaded_program.h"
#include "ui/examples/trace_job.h"

class QAction;
class QDockWidget;
class QMenu;
class QMenuBar;
class QTabWidget;
class QWidget;

namespace exportlens::ui {

class BusyOverlay;
class ExamplesGallery;
class IrLevelsUi;
class ProgramLoader;
class SpecSession;
class ViolationsPanel;

/// What of the window tracing uses, and how it opens a source.
struct TraceParts {
  QWidget* window;             // parent of dialogs and actions
  ProgramLoader* loader;
  QTabWidget* centralTabs;     // gets the Examples page
  QWidget* graphTab;           // shown once a trace is on screen
  BusyOverlay* overlay;
  SpecSession* spec;           // its spec is what a re-trace uses
  ViolationsPanel* violations;
  QDockWidget* violationsDock;
  IrLevelsUi* levels;          // offers the tables a library registers
  /// Opens `path` through the loader (MainWindow::open): display name, whether to remember it.
  std::function<void(const QString& path, const QString& displayName, bool remember)> open;
};

class TraceController : public QObject {
  Q_OBJECT
 public:
  explicit TraceController(const TraceParts& parts);

  ExamplesGallery* gallery() const { return gallery_; }
  QAction* openModelAction() const { return open_model_action_; }
  QAction* examplesPageAction() const { return examples_page_action_; }
  QAction* retraceAction() const { return retrace_action_; }
  /// Adds the Examples menu (gallery families, re-trace) to `bar`.
  QMenu* addExamplesMenu(QMenuBar* bar);
  QMenu* examplesMenu() const { return examples_menu_; }

  /// Asked before a model library is loaded (its code runs in this process).
  void setLibraryApproval(std::function<bool(const QString& path)> approval) { approval_ = std::move(approval); }

  /// The program on screen is a trace: traces it again (F5); false when it is not.
  bool retraceShown();
  /// A failed load that was a trace: shows torch's error and returns true.
  bool showFailure(const QString& path, const QString& message);

 public slots:
  /// Traces a gallery example (with `spec` instead of its own) off the GUI thread.
  void openExample(const QString& name, const std::optional<QString>& spec = std::nullopt);
  /// Traces a model library's model; with several and no `model`, asks which.
  void openModelLibrary(const QString& path, const QString& model = QString());
  void showOpenModelDialog();
  void showExamplesPage();
  /// Traces the model on screen again with the Dynamic shapes dock's spec.
  void retraceWithShapesSpec();

 signals:
  void statusMessage(const QString& text);
  /// A library could not be loaded (no trace started).
  void loadFailed(const QString& path, const QString& message);
  void openFileRequested();
  void builtinExampleRequested();

 private:
  void createActions();
  void startTrace(const TraceJob& job, bool remember);
  void noteShown(const LoadedProgramPtr& program);

  TraceParts parts_;
  ExamplesGallery* gallery_ = nullptr;
  QAction* open_model_action_ = nullptr;
  QAction* examples_page_action_ = nullptr;
  QAction* retrace_action_ = nullptr;
  QMenu* examples_menu_ = nullptr;
  std::function<bool(const QString&)> approval_;
  std::optional<TraceJob> pending_;  // the trace the loader runs, if it runs one
  std::optional<TraceJob> shown_;    // the trace behind the program on screen
  std::shared_ptr<TraceFailure> failure_;
};

}  // namespace exportlens::ui

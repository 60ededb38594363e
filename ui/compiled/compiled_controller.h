#pragma once
// Compiled models in the window: what an opened archive holds (read when a
// .pt2 opens) and its program switch in the toolbar; the Compiled model dock;
// an AOTInductor package without its program opened with no graph and the
// offer to link the program it was compiled from (Link Program File…); each
// kernel on the nodes it computes (a kernel selects its nodes on the canvas,
// the inspector lists a node's kernels, the canvas is tinted by them); the
// source viewer; Run Compiled Model…, asked first and never on open, off the
// GUI thread, its outputs compared with the program and its kernel times
// painted on the mapped nodes.
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QTabWidget;
class QWidget;

namespace exportlens::ui {

class CompiledModelPanel;
class CompiledRunWorker;
class CompiledSession;
class GraphScene;
class InspectorWidget;
class KernelOverlay;
class NoProgramNotice;
class ProgramModel;
class ProgramSwitch;
class SourceViewer;

struct CompiledParts {
  QMainWindow* window;
  ProgramModel* model;
  GraphScene* scene;
  QWidget* canvas;  // the graph view: the no-program notice floats over it
  QTabWidget* tabs;  // the central tabs holding it (brought forward for a package without its program)
  InspectorWidget* inspector;
  /// Opens `program` ("" = the file's own choice) of `path`, shown as `displayName`.
  std::function<void(const QString& path, const QString& program, const QString& displayName)> openProgram;
  /// Shows a line in the status bar.
  std::function<void(const QString&)> status;
  /// Says that `path` could not be opened, and why (the window's error box).
  std::function<void(const QString& path, const QString& message)> showLoadError;
};

class CompiledController : public QObject {
  Q_OBJECT
 public:
  explicit CompiledController(const CompiledParts& parts);

  CompiledSession* session() const { return session_; }
  CompiledModelPanel* panel() const { return panel_; }
  QDockWidget* dock() const { return dock_; }
  ProgramSwitch* programSwitch() const { return switch_; }
  KernelOverlay* overlay() const { return overlay_; }
  CompiledRunWorker* runWorker() const { return worker_; }
  NoProgramNotice* notice() const { return notice_; }
  QAction* linkAction() const { return link_action_; }
  QAction* runAction() const { return run_action_; }
  /// The source viewer opened last (null before one, or once closed).
  SourceViewer* sourceViewer() const;
  /// The program file linked to a package without its program ("" = none).
  QString linkedProgram() const { return linked_path_; }

  /// Asked before the compiled model's code is loaded and run; false runs
  /// nothing. The application asks the user (confirm_compiled_run); tests answer.
  void setRunApproval(std::function<bool(const QString& package, const QString& model)> approval);

  /// The window opens `path` (File › Open, the command line, a drop): what it
  /// holds is read. `program`: the one of several asked for ("" = the default);
  /// `programFile`: linked once a package without its program is shown.
  void fileOpening(const QString& path, const QString& program = QString(), const QString& programFile = QString());
  /// Opening `path` failed: true when that is because it holds compiled code
  /// only (then it is shown so), or may be (the answer comes when its contents are read).
  bool explainsFailure(const QString& path, const QString& message);
  /// Reload (F5) of the archive shown: opens again the program chosen in its
  /// switch, or the package without its program; false when the window's own reload applies.
  bool reloadShown();
  /// The title's name of what is shown when no program is ("plain.pt2"), else "".
  QString shownArchiveName() const;

 public slots:
  /// Links the program file `path` to the compiled model shown: opens it and maps the kernels onto it.
  void linkProgramFile(const QString& path);
  /// Asks for the program file to link.
  void showLinkDialog();
  /// Asks first, then runs the compiled model shown off the GUI thread.
  void runCompiledModel();
  /// Opens `entry` of the archive at `line` in the source viewer.
  void openSource(const QString& entry, int line = 0);
  /// Opens kernel `kernel`'s source at its definition, or where the wrapper launches it.
  void openKernelSource(int kernel, bool atLaunch = false);

 signals:
  /// An archive of compiled code only is shown (no program): the title changes.
  void compiledOnlyShown(const QString& path);
  void sourceViewerOpened(exportlens::ui::SourceViewer* viewer);
  /// A run was refused by the user: nothing was loaded.
  void runDeclined();

 private:
  void onContents();
  void onProgramOpened();
  void remap();
  void showCompiledOnly();
  void onKernelSelected(int kernel);
  void onInspectorLink(const QUrl& url);
  void status(const QString& text) const;

  CompiledParts parts_;
  CompiledSession* session_;
  CompiledModelPanel* panel_;
  QDockWidget* dock_;
  ProgramSwitch* switch_;
  KernelOverlay* overlay_;
  CompiledRunWorker* worker_;
  NoProgramNotice* notice_;
  QAction* link_action_;
  QAction* run_action_;
  QPointer<QWidget> viewer_;  // a SourceViewer
  std::function<bool(const QString&, const QString&)> approval_;
  QString linked_path_;
  QString link_on_open_;  // --program-file: linked when the package shows without its program
  QString pending_failure_path_, pending_failure_message_;
};

}  // namespace exportlens::ui

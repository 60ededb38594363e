#pragma once
// Failed (and successful) Python exports as a way of opening programs:
// File › Capture Python Export… runs a script under the capture package,
// File › Open takes a capture folder or a torch trace log, and the Export
// attempts dock lists every export call. The current attempt's program (its
// exported program, its draft program, or the partial graph its trace left)
// opens in the window like a .pt2, with the attempt's own spec in the Dynamic
// shapes editor, so an edited spec re-solves against it; Re-run runs the
// script again with that spec in place of the call's dynamic_shapes and shows
// the new attempt beside the old.
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include "ui/capture/capture_session.h"
#include "ui/core/loaded_program.h"

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace exportlens::ui {

class CaptureDialog;
class CapturePanel;
class ProgramLoader;
class ProgramModel;
class SpecSession;

struct CaptureParts {
  QMainWindow* window;
  ProgramLoader* loader;
  ProgramModel* model;
  SpecSession* spec;
  /// Shows a line in the status bar.
  std::function<void(const QString&)> status;
};

class CaptureController : public QObject {
  Q_OBJECT
 public:
  explicit CaptureController(const CaptureParts& parts);

  CaptureSession* session() const { return session_; }
  CapturePanel* panel() const { return panel_; }
  QDockWidget* dock() const { return dock_; }
  CaptureDialog* dialog();
  QAction* captureAction() const { return capture_action_; }
  QAction* openFolderAction() const { return open_folder_action_; }

  /// Opens a capture folder or trace log; `attempt` 0: the first failed one.
  void open(const QString& path, int attempt = 0);
  /// Runs the script again, the spec being edited in place of row `row`'s call's dynamic_shapes.
  void rerun(int row);
  /// Runs the script again with draft_export for every failed call, into the same folder.
  void captureWithDraft();

 signals:
  /// The spec editor got the attempt's spec or torch's fixes (the window shows that dock).
  void specChanged();
  /// A capture or log is being opened (the dock is shown).
  void opening();

 private:
  void showRow(int row);
  void onProgramOpened();

  CaptureParts parts_;
  CaptureSession* session_;
  CapturePanel* panel_;
  QDockWidget* dock_;
  CaptureDialog* dialog_ = nullptr;
  QAction* capture_action_;
  QAction* open_folder_action_;
  int pending_row_ = -1;   // the row whose program the loader is opening
  int rerun_of_ = -1;      // the row a running re-run re-runs
  int reopen_attempt_ = 0; // after Capture Again, the attempt to show
};

}  // namespace exportlens::ui

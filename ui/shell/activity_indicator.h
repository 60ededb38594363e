#pragma once
// The status bar's progress bar and Cancel button, following the work that
// runs off the GUI thread: opening a program (the ProgramLoader, first) and
// running one (the RunWorker). It says what a run is doing and how it ended.
#include <QObject>
#include <QString>

class QProgressBar;
class QStatusBar;
class QToolButton;

namespace exportlens::ui {

class ProgramLoader;
class RunWorker;

class ActivityIndicator : public QObject {
  Q_OBJECT
 public:
  /// Adds its widgets to `bar` (permanent, right of the message).
  ActivityIndicator(QStatusBar* bar, ProgramLoader* loader, RunWorker* runs);

 signals:
  /// A line for the status bar's message.
  void message(const QString& text);

 private:
  void begin();
  void setProgress(int percent);
  void end();

  ProgramLoader* loader_;
  RunWorker* runs_;
  QProgressBar* progress_;
  QToolButton* cancel_;
};

}  // namespace exportlens::ui

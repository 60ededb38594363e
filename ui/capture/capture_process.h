#pragma once
// The user's script run under the capture package through QProcess, so its
// output streams into the window and Cancel stops it: the command line is
// engine/capture's (the CLI runs the same one). This runs the user's code,
// which is what they asked for; opening a capture never does.
#include <QObject>
#include <QProcess>
#include <QString>

#include "engine/capture/capture_runner.h"

namespace exportlens::ui {

class CaptureProcess : public QObject {
  Q_OBJECT
 public:
  explicit CaptureProcess(QObject* parent = nullptr);
  ~CaptureProcess() override;

  /// The folder the capture package lies in for this executable.
  static std::filesystem::path packageDir();
  /// Starts; a bad request (no interpreter, no script) is `failed` at once.
  void start(capture::CaptureRequest request);
  /// Stops the script: SIGTERM, SIGKILL two seconds later.
  void cancel();
  bool isRunning() const;
  QString folder() const { return folder_; }

 signals:
  void started(const QString& commandLine);
  /// stdout and stderr as they arrive.
  void output(const QString& text);
  /// The script ended (`cancelled`: stopped by cancel()); the capture is in folder().
  void finished(int exitCode, bool cancelled);
  void failed(const QString& message);

 private:
  QProcess* process_;
  QString folder_;
  bool cancelled_ = false;
};

}  // namespace exportlens::ui

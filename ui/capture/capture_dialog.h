#pragma once
// File › Capture Python Export…: the script, the interpreter (by default the
// first python3 on PATH) and the script's arguments; Capture runs it under
// the capture package, streaming its output here, and Cancel stops it. When
// the script ends the capture is opened (captured()). Re-runs come through
// here too, with an edited spec for one call.
#include <QDialog>

#include "engine/capture/capture_runner.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace exportlens::ui {

class CaptureProcess;

class CaptureDialog : public QDialog {
  Q_OBJECT
 public:
  explicit CaptureDialog(QWidget* parent = nullptr);

  /// Fills the fields (a new capture of `script`, or a re-run of an earlier one).
  void setRequest(const capture::CaptureRequest& request);
  /// The request the fields describe (a fresh output folder when none is set).
  capture::CaptureRequest request() const;
  /// Starts the capture now (Capture pressed).
  void start();
  void cancel();
  bool isRunning() const;

  QLineEdit* scriptEdit() const { return script_; }
  QLineEdit* pythonEdit() const { return python_; }
  QLineEdit* argumentsEdit() const { return arguments_; }
  QCheckBox* draftBox() const { return draft_; }
  QPlainTextEdit* outputView() const { return output_; }
  QLabel* statusLabel() const { return status_; }

 signals:
  /// The script ended and left a capture in `folder` (also after Cancel: what was recorded so far).
  void captured(const QString& folder, int exitCode);

 private:
  void setRunning(bool running);

  QLineEdit* script_;
  QLineEdit* python_;
  QLineEdit* arguments_;
  QLineEdit* folder_;
  QCheckBox* draft_;
  QPlainTextEdit* output_;
  QLabel* status_;
  QPushButton* run_;
  QPushButton* stop_;
  CaptureProcess* process_;
  std::filesystem::path spec_override_;  // a re-run's
};

}  // namespace exportlens::ui

#pragma once
// The opened capture (or plain trace log) and its attempts: read and
// explained off the GUI thread, one row per export call, re-runs with an
// edited spec added beside the attempt they re-ran. The Attempts table and
// the attempt view show it; the controller opens the current attempt's
// program in the window.
#include <QObject>
#include <QString>
#include <QVector>

#include <memory>

#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/capture_folder.h"
#include "ui/core/background_jobs.h"

namespace exportlens::ui {

/// One row of the Attempts table.
struct AttemptRow {
  std::shared_ptr<const capture::Capture> capture;  // the capture it belongs to (null for a plain log)
  std::shared_ptr<const capture::Attempt> attempt;
  std::shared_ptr<const capture::AttemptDiagnosis> diagnosis;
  QString source;        // what opens its program through engine/sources (the capture folder, the log)
  QString program;       // "" (the attempt's own), the `--program` selector for the source
  QString programKind;   // what its graph is ("draft program (draft_export)"), or empty when none
  QString noProgram;     // why it has none
  int rerunOf = -1;      // the row this one re-ran with an edited spec, or -1
};

class CaptureSession : public QObject {
  Q_OBJECT
 public:
  explicit CaptureSession(QObject* parent = nullptr);

  /// Reads a capture folder or trace log (never runs anything); `current` is
  /// the attempt to show first (0: the first failed one).
  void open(const QString& path, int current = 0);
  /// A re-run's capture (`folder`): its re-run attempt goes beside row `of`.
  void addRerun(const QString& folder, int of);
  void close();

  const QVector<AttemptRow>& rows() const { return rows_; }
  int current() const { return current_; }
  const AttemptRow* currentRow() const { return current_ >= 0 && current_ < rows_.size() ? &rows_[current_] : nullptr; }
  void setCurrent(int row);
  QString path() const { return path_; }
  bool isOpen() const { return !path_.isEmpty(); }
  bool busy() const { return jobs_.isBusy(); }

 signals:
  void opened();
  void rowsChanged();
  void currentChanged(int row);
  void failed(const QString& path, const QString& message);

 private:
  struct Read {
    QVector<AttemptRow> rows;
    int current = 0;
  };
  BackgroundJobs<std::shared_ptr<Read>> jobs_{this};
  QVector<AttemptRow> rows_;
  int current_ = -1;
  QString path_;
};

}  // namespace exportlens::ui

#pragma once
// Runs a compiled model off the GUI thread (numerics::compare_compiled:
// LibTorch's AOTInductor loader, then the exported program through
// ExportLens' interpreter on the same inputs, compared), with progress and
// Cancel. Only ever started after the user agreed (compiled_run_consent.h):
// the request carries that consent.
#include <QObject>
#include <QString>

#include "engine/numerics/compiled_comparison.h"
#include "ui/compiled/compiled_session.h"
#include "ui/core/background_jobs.h"

namespace exportlens::ui {

class CompiledRunWorker : public QObject {
  Q_OBJECT
 public:
  explicit CompiledRunWorker(QObject* parent = nullptr);
  /// Starts the run; one at a time (a new one replaces the old).
  void start(numerics::CompiledComparisonRequest request);
  void cancel();
  bool isBusy() const { return jobs_.isBusy(); }

 signals:
  void started();
  void progress(int percent, const QString& stage);
  void finished(exportlens::ui::CompiledComparisonPtr result);
  void failed(const QString& message);
  void cancelled();

 private:
  BackgroundJobs<CompiledComparisonPtr> jobs_{this};
};

}  // namespace exportlens::ui

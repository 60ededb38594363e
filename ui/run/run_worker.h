#pragma once
// Runs the open program through the runtime on a worker thread: inputs from
// a file or random from the signature, on the chosen device and precision,
// per-node times, kernels and memory, the CUDA-graph replay, and the same
// inputs on the CPU as the reference. Reports progress, can be cancelled
// (between nodes); one run at a time.
#include <QObject>

#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/run/run_outcome.h"

namespace exportlens::ui {

class RunWorker : public QObject {
  Q_OBJECT
 public:
  explicit RunWorker(QObject* parent = nullptr);
  ~RunWorker() override;

  /// Starts a run; refused (finished with an error) when one is running or
  /// the device is not available here.
  void start(const LoadedProgramPtr& program, const RunSettings& settings);
  void cancel();
  bool isBusy() const { return jobs_.isBusy(); }

  /// Whether `device` can run here; if not, why (for people) and the
  /// command or step that would make it run.
  static bool deviceAvailable(const QString& device, QString* why, QString* fix = nullptr);

 signals:
  void started(const exportlens::ui::RunSettings& settings);
  void progress(int percent, const QString& stage);
  /// Success or failure; cancelled runs end with cancelled() instead.
  void finished(const exportlens::ui::RunOutcome& outcome);
  void cancelled();

 private:
  void finish(JobOutcome<RunOutcome>& outcome);

  BackgroundJobs<RunOutcome> jobs_{this};
};

}  // namespace exportlens::ui

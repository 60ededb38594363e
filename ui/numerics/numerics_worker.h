#pragma once
// Numerics runs off the GUI thread (ui/core/background_jobs.h): the program
// as exported (A, CPU) against B as NumericsSettings say, every node
// compared, with progress and cancel; and, for the tensor viewer, one node's
// values (the same run again keeping that node) or a weight's (read from its
// archive, no run). One run at a time; the values jobs run beside it.
#include <QObject>

#include <memory>

#include "engine/numerics/numerics_run.h"
#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/numerics/numerics_settings.h"

namespace exportlens::ui {

struct NumericsOutcome {
  NumericsSettings settings;
  std::shared_ptr<const numerics::NumericsResult> result;  // null when refused or failed
  QString error;
};

/// One node's values for the tensor viewer: A, B and B - A after a run;
/// only `a` for a weight.
struct TensorValues {
  QString node;
  QString title;  // "conv2d: as exported / bfloat16", "weight conv1.weight"
  std::shared_ptr<const numerics::SnapshotPair> pair;
  bool single = false;  // a weight: pair->a only
  QString error;
};

class NumericsWorker : public QObject {
  Q_OBJECT
 public:
  explicit NumericsWorker(QObject* parent = nullptr);
  ~NumericsWorker() override;

  /// Starts a run; refused (finished with an error) when one is running, B is
  /// the program as exported on the CPU (nothing to compare), or the device
  /// is not available here.
  void start(const LoadedProgramPtr& program, const NumericsSettings& settings);
  void cancel();
  bool isBusy() const { return runs_.isBusy(); }

  /// `node`'s values: a weight's from the archive; a computed value's by
  /// running A and B again (with `settings`) and keeping that node.
  void requestValues(const LoadedProgramPtr& program, const NumericsSettings& settings, const QString& node);

 signals:
  void progress(int percent, const QString& stage);
  void finished(const exportlens::ui::NumericsOutcome& outcome);
  void cancelled();
  void valuesReady(const exportlens::ui::TensorValues& values);

 private:
  BackgroundJobs<NumericsOutcome> runs_{this};
  BackgroundJobs<TensorValues> values_{this};
};

}  // namespace exportlens::ui

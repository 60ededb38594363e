#pragma once
// What a run produced: the runtime's report (outputs, per-node times,
// kernels, memory, the comparison with the CPU, the CUDA-graph replay), or
// why it failed (a cancelled run has no outcome).
#include <QMetaType>
#include <QString>

#include <optional>

#include "engine/runtime/program_runner.h"
#include "ui/run/run_settings.h"

namespace exportlens::ui {

struct RunOutcome {
  RunSettings settings;
  std::optional<runtime::RunReport> report;     // set when the run succeeded
  QString error;           // why the run failed: names the op, input or device
  double seconds = 0;      // wall time, the CPU reference included

  bool succeeded() const { return report.has_value(); }
};

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::RunOutcome)

#pragma once
// Tracing a C++ model as a way of opening a program: which model (a gallery
// example or a model library's), with which spec, and why it failed. The
// trace runs inside ProgramLoader (off the GUI thread, with its progress and
// cancel) through the reader trace_reader() makes.
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "engine/ops/solve_result.h"
#include "ui/core/program_loader.h"

namespace exportlens::ui {

struct TraceJob {
  QString example;              // a gallery example's name, or
  QString library;              // a model library (.so) and
  QString model;                // one of its models ("" = its only one)
  std::optional<QString> spec;  // overrides the model's dynamic_shapes spec

  bool isExample() const { return !example.isEmpty(); }
  /// What the loader and the title see: "example:my_module", or the library's path.
  QString sourcePath() const;
  /// "my_module (example)", "libnet.so › net".
  QString displayName() const;
};

/// Why a trace produced no program: torch's exception type and message, and
/// the C++ source lines it names.
struct TraceFailure {
  QString type;        // "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode"
  QString kind;        // "data_dependent", "constraint", ...; "library" when it could not load
  QString message;     // torch's message (with its suggested fixes)
  QStringList sources; // "data_dependent.cpp:42 in forward: if (a / 2 >= 5)"
  QString fixedSpec;   // the spec with torch's suggested fixes applied ("" if none)
  double traceMs = 0;
  /// torch's verdict when the spec was violated (the Violations dock shows it); null otherwise.
  std::shared_ptr<const ops::SolveResult> report;

  QString title() const;  // "GuardOnDataDependentSymNode" (the type's last part)
};

/// A reader that traces `job`; on failure it fills `*failure` before throwing.
ProgramReader trace_reader(TraceJob job, std::shared_ptr<TraceFailure> failure);


}  // namespace exportlens::ui

#pragma once
// A compiled model (AOTInductor) against the exported program as ExportLens
// interprets it: both run on the same inputs, each output compared with
// numerics' statistics (max abs / rel, MSE, SNR, cosine, NaN/Inf,
// torch.testing's dtype-aware tolerance). Runtime executes (the interpreter,
// runtime::run_compiled); this compares. No LibTorch in this header: the CLI
// and the GUI call it.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/compiled/compiled_model.h"
#include "engine/ir/exported_program.h"
#include "engine/numerics/numerics_report.h"
#include "engine/runtime/compiled_runner.h"

namespace exportlens::numerics {

struct CompiledComparisonRequest {
  /// The compiled run: package, model, consent, inputs, device, warmup/repeat,
  /// cancel and progress. Its `program` is the one compared with; nullptr runs
  /// the compiled model alone (no comparison; random inputs then cannot be made).
  runtime::CompiledRunRequest run;
  /// The compiled model as the package describes it (compiled::read_archive_contents),
  /// when read: its kernels name the profiler's events (run.kernel_names, when
  /// empty) and, with a program, map each timed kernel onto its program nodes.
  std::shared_ptr<const compiled::CompiledModel> model;
};

struct OutputComparison {
  std::string name;      // the program's output name ("sigmoid" ...), else "output 0"
  std::optional<ErrorStats> stats;  // compiled (B) against interpreted (A); unset when not comparable
  std::string mismatch;  // why not comparable: "shape [2, 4] vs [2, 3]", "2 outputs vs 3"
  bool close() const { return stats && !stats->beyond_tolerance; }
};

struct CompiledComparison {
  runtime::CompiledRunReport compiled;
  bool compared = false;     // a program was given and run
  std::string not_compared;  // why not: "the archive holds no program: give --program-file"
  std::vector<OutputComparison> outputs;
  bool all_close = false;    // every output comparable and within tolerance
  double interpreted_ms = 0; // the interpreter's median wall time, same inputs, same warmup and repeat
  std::string interpreted_device;
  std::string kernel_map;    // compiled::KernelMap::summary: how kernels map onto the program ("" without a model)
};

/// Runs the compiled model (runtime::run_compiled) and, with a program, the
/// program through ExportLens' interpreter on the same inputs, and compares.
/// Throws as run_compiled does (Usage without consent, before anything loads).
CompiledComparison compare_compiled(const CompiledComparisonRequest& request);

/// The comparison as the CLI prints it: the model and device, the times,
/// each output (close or not, max abs / rel, SNR, cosine), the `top` slowest
/// kernels with their program nodes, and how kernels were timed.
std::string format_compiled_comparison(const CompiledComparison& c, size_t top = 20);

/// The same as JSON, for tools (`run --compiled --json OUT`).
std::string compiled_comparison_json(const CompiledComparison& c);

}  // namespace exportlens::numerics

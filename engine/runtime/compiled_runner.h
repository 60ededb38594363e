#pragma once
// Running an AOTInductor compiled model of a .pt2 package through LibTorch's
// package loader (torch::inductor::AOTIModelPackageLoader). This loads the
// package's shared library and runs its code: callers ask the user first (as
// for model libraries) and say so with `consent`; nothing is loaded without
// it, and nothing is ever loaded on open. No LibTorch in this header: the CLI
// and the GUI call it. The comparison with the program as ExportLens
// interprets it lives above, in engine/numerics/compiled_comparison.h.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/cancel_token.h"
#include "engine/ir/exported_program.h"
#include "engine/runtime/run_report.h"
#include "engine/serde/read_limits.h"

namespace exportlens::runtime {

struct CompiledRunRequest {
  std::filesystem::path package;  // the .pt2 holding data/aotinductor/<model>/
  std::string model = "model";    // the compiled model's name in the package
  /// The user agreed to load and run the package's compiled code. Without it
  /// run_compiled throws Error(Usage) before anything is read or loaded.
  bool consent = false;
  /// Inputs: a torch.save'd tuple (as `run --inputs`), or random ones made
  /// from `program`'s signature with `seed` (random needs the program).
  std::optional<std::filesystem::path> inputs_file;
  bool random_inputs = false;
  uint64_t seed = 0;
  /// The exported program the model was compiled from, when known: random
  /// inputs are made from its signature and inputs are checked against it.
  std::shared_ptr<const ir::ExportedProgram> program;
  std::string device = "cpu";  // "cpu", "cuda", "cuda:1" (CUDA in the CUDA flavour)
  /// As run_program: the outputs reported are the first run's; `warmup` runs,
  /// then `repeat` timed ones (warmup 0: the first run is timed); then two more
  /// under LibTorch's profiler (the second kept) for per-kernel times when profile_kernels.
  int warmup = 0;
  int repeat = 1;
  bool profile_kernels = true;
  /// The package's kernel names in launch order (compiled::CompiledModel::kernels),
  /// to attribute profiler events to; empty: events are reported by profiler name only.
  std::vector<std::string> kernel_names;
  std::optional<std::filesystem::path> outputs_file;  // torch.save'd tuple of the outputs
  serde::ReadLimits limits;  // reading the inputs file; random inputs' bytes
  const CancelToken* cancel = nullptr;
  std::function<void(int done, int total)> progress;  // runs done of all runs
};

/// Time spent in one kernel of the compiled model (or one profiler event name).
struct CompiledKernelTime {
  std::string event;        // the profiler's name: "cpp_fused_add_relu_0", "aten::_convolution", "triton_poi_fused_0"
  std::string kernel;       // the package kernel it is attributed to ("aoti_torch_cpu_addmm_out"); "" when none
  int kernel_index = -1;    // into kernel_names / CompiledModel::kernels; -1 when none
  double total_ms = 0;      // summed over its calls in the profiled run
  int calls = 0;
  bool device_time = false; // a CUDA kernel's device time (else host time)
  std::vector<std::string> nodes;  // program nodes it computes (numerics::compare_compiled maps them)
};

struct CompiledRunReport {
  std::string package, model, device;
  std::vector<ValueSummary> inputs, outputs;
  double median_ms = 0;        // median host wall time of one run (synchronized on CUDA)
  std::vector<double> run_ms;  // each timed run
  int warmup = 0, repeat = 1;
  double load_ms = 0;          // loading the package (extracting and dlopen-ing the library)
  std::vector<CompiledKernelTime> kernels;  // worst first
  /// How kernels were timed and which were not seen: "LibTorch profiler, CPU
  /// activity; 3 of 5 package kernels seen; not seen: cpp_fused_x_0 (...)".
  std::string kernels_note;
  std::vector<std::string> notes;
};

/// Loads the package's compiled model and runs it. Throws Error(Usage) without
/// consent (before anything is loaded) and for inputs the request cannot have
/// (random without a program), Error(Run, {.file = package}) in one line when
/// the loader or the run fails (wrong device, ABI, missing entries), Cancelled.
CompiledRunReport run_compiled(const CompiledRunRequest& request);

/// The profiler name an ATen fallback of a package is looked for under:
/// "aoti_torch_cpu_addmm_out" -> "aten::addmm" (its implementation "aten::_addmm"
/// matches too); inductor kernels keep their name.
std::string profiler_name_of_kernel(const std::string& kernel);

}  // namespace exportlens::runtime

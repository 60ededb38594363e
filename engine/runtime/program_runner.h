#pragma once
// Running a program without seeing LibTorch: what the CLI and the GUI call.
// Inputs come from a torch.save file or are made at random from the
// signature; outputs can be written back with torch.save's format, so Python
// reads them with torch.load.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/base/cancel_token.h"
#include "engine/ir/exported_program.h"
#include "engine/runtime/precision.h"
#include "engine/runtime/run_report.h"
#include "engine/runtime/input_check.h"
#include "engine/serde/read_limits.h"

namespace exportlens::runtime {

struct RunRequest {
  std::optional<std::filesystem::path> inputs_file;   // torch.save'd tuple of inputs
  bool random_inputs = false;                         // else inputs_file is required
  uint64_t seed = 0;
  std::string device = "cpu";                         // "cpu", "cuda", "cuda:1"
  std::optional<std::filesystem::path> outputs_file;  // torch.save'd tuple of user outputs
  std::optional<std::filesystem::path> used_inputs_file;  // write the inputs used (e.g. random ones)
  bool time_nodes = false;
  /// fp32: as exported; bf16 / fp16 cast floating parameters, buffers,
  /// and inputs, as ep.module().to(dtype) (the report says what was cast).
  Precision precision = Precision::AsExported;
  /// The outputs reported are the first run's (from the program's own buffer
  /// state, as one ep.module()(*inputs) call); `warmup` more runs follow,
  /// then `repeat` timed ones (the median run's times). warmup 0, repeat 1: the
  /// first run is the timed one.
  int warmup = 0;
  int repeat = 1;
  /// Also run on the CPU, as exported, from the same inputs and compare each
  /// output (max abs / rel error, allclose with dtype-aware tolerances);
  /// with compare_nodes every node's value too, naming the first divergent one.
  bool compare_cpu = false;
  bool compare_nodes = false;
  /// CUDA: record each node's kernels (CUPTI) and device memory in one more
  /// run, outside the timed ones.
  bool profile_device = false;
  /// CUDA: capture the whole program as a CUDA graph and time its replay.
  bool cuda_graph = false;
  /// Called between nodes (stage by stage over all the runs); the run stops
  /// with Cancelled before the next node once `cancel` is set.
  std::function<void(int done, int total)> progress;
  const CancelToken* cancel = nullptr;
  /// Ops the user allows although they do more than compute ("aten::from_file");
  /// any other such op makes the run fail before a node runs (refused_operators()).
  std::set<std::string> allowed_ops;
  /// The user's --limit values: the bytes random inputs may take (checked
  /// before any is allocated), the bytes the run may hold on the CPU and a
  /// node may declare, and how an inputs file is read (sizes, nesting, objects).
  serde::ReadLimits limits;
};

/// Checks inputs (signature and range constraints), runs, optionally writes
/// outputs. Throws std::runtime_error with a clear message on any failure.
RunReport run_program(const ir::ExportedProgram& ep, const RunRequest& request);

/// A torch.save'd inputs file (what `--inputs` takes), described without
/// running anything: read as run_program reads it (saved_values.h). With
/// `values`, each value's summary too (its text compares floats, bools, None).
std::vector<InputDescription> describe_inputs_file(const std::filesystem::path& path,
                                                   std::vector<ValueSummary>* values = nullptr);

/// Whether `device` ("cuda", ...) can run here; if not, *why says so and
/// *fix (when given) the command or step that would make it run.
bool device_available(const std::string& device, std::string* why, std::string* fix = nullptr);

/// The GPUs this process can use; empty with *why when there are none.
std::vector<DeviceInfo> list_devices(std::string* why);

/// Whether this build links the CUDA flavour of LibTorch.
bool built_with_cuda();

/// Ops the program uses that this process cannot run ("ns::op.overload (node 'x')").
std::vector<std::string> unavailable_operators(const ir::ExportedProgram& ep);

/// A call a run refuses unless the user allows its op: it touches files,
/// processes, the network, process-wide state or raw memory.
struct RefusedOp {
  std::string node;    // "node 'x'", "true_graph_0/node 'x'"
  std::string op;      // "aten::from_file": what --allow-op takes
  std::string reason;  // "reads or writes a file"
  std::string overload;  // "aten::from_file.default"
  /// "node 'x' (aten::from_file.default): reads or writes a file"
  std::string str() const { return node + " (" + overload + "): " + reason; }
};
std::vector<RefusedOp> refused_operators(const ir::ExportedProgram& ep, const std::set<std::string>& allowed = {});

}  // namespace exportlens::runtime

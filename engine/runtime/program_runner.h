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

#include "engine/ir/exported_program.h"
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
  std::function<bool(int done, int total)> progress;  // return false to cancel
  /// Ops the user allows although they do more than compute ("aten::from_file");
  /// any other such op makes the run fail before a node runs (refused_operators()).
  std::set<std::string> allowed_ops;
  /// Bytes the random inputs may take, checked before any is allocated.
  uint64_t max_input_bytes = uint64_t(4) << 30;
  /// Bytes the run may hold on the CPU, and the most a node may declare (--limit run-bytes).
  uint64_t max_run_bytes = serde::ReadLimits().max_run_bytes;
};

/// What one value looks like, for reports (no LibTorch types).
struct ValueSummary {
  std::string kind;  // "tensor", "int", "float", "bool", "none", "other"
  std::string dtype;  // "torch.float32"
  std::vector<int64_t> shape;
  double min = 0, max = 0, mean = 0;  // tensors with elements
  std::string text;  // a short human-readable rendering
};

struct NodeTime {
  std::string node;
  double milliseconds = 0;
};

struct RunReport {
  std::string device;
  std::vector<ValueSummary> inputs;
  std::vector<ValueSummary> outputs;
  std::vector<NodeTime> node_times;
  double total_ms = 0;
};

/// Checks inputs (signature and range constraints), runs, optionally writes
/// outputs. Throws std::runtime_error with a clear message on any failure.
RunReport run_program(const ir::ExportedProgram& ep, const RunRequest& request);

/// A torch.save'd inputs file (what `--inputs` takes), described without
/// running anything: scanned before unpickling, as run_program does. With
/// `values`, each value's summary too (its text compares floats, bools, None).
std::vector<InputDescription> describe_inputs_file(const std::filesystem::path& path,
                                                   std::vector<ValueSummary>* values = nullptr);

/// Whether `device` ("cuda", ...) can run here; if not, *why says so.
bool device_available(const std::string& device, std::string* why);

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

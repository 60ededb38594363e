#pragma once
// A numerics run: the program executed two ways, A (the baseline) and B (the
// run under test), in lockstep, every paired value compared as it is made.
// Ways differ by device (cpu, cuda), dtype (as exported, bf16, fp16, fp64),
// IR level (B lowered from A), program (a second .pt2 paired to A's nodes),
// or A is values recorded outside (a reference file of {node name: tensor}).
// Memory stays bounded: both runs free values as a plain run does, the
// statistics are streamed, and tensors are kept only for the nodes asked for.
// No LibTorch in this header: the CLI and the GUI call it.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "engine/base/cancel_token.h"
#include "engine/ir/exported_program.h"
#include "engine/numerics/node_pairing.h"
#include "engine/numerics/numerics_report.h"
#include "engine/numerics/tensor_snapshot.h"
#include "engine/runtime/precision.h"
#include "engine/serde/read_limits.h"

namespace exportlens::numerics {

/// One way of running: the program, where, in what precision.
struct RunWay {
  std::shared_ptr<const ir::ExportedProgram> program;
  std::string device = "cpu";
  runtime::Precision precision = runtime::Precision::AsExported;
  std::string label;  // "as exported on cpu", "bfloat16", "Core ATen"
};

struct NumericsRequest {
  RunWay a, b;
  /// A's values recorded outside instead of running A: a torch.save'd dict of
  /// {node name: tensor} (the exportlens_reference hook writes one).
  std::optional<std::filesystem::path> reference;
  /// Which B node is compared with which A node (same_graph, by_provenance, ...).
  NodePairing pairing;
  /// The inputs: a torch.save'd tuple, or random from the signature with `seed`.
  std::optional<std::filesystem::path> inputs_file;
  uint64_t seed = 0;
  /// Also run each B computation on A's inputs (the error a node introduces).
  bool introduced = true;
  /// Skip the work whose answer is proved (data movement's introduced and
  /// total error, its finiteness: README); the figures are the same without.
  bool shortcuts = true;
  /// A nodes whose A and B values to keep as snapshots (the tensor viewer).
  std::set<std::string> keep;
  /// Snapshots keep every element up to this many (stats and histogram are always whole).
  int64_t snapshot_elements = 1 << 24;
  std::set<std::string> allowed_ops;
  /// --limit: the bytes random inputs and each run may take, the inputs file's and reference file's reading limits.
  serde::ReadLimits limits;
  const CancelToken* cancel = nullptr;
  std::function<void(int done, int total)> progress;
};

struct NumericsResult {
  NumericsReport report;
  std::map<std::string, SnapshotPair> kept;  // by A node name
};

/// Runs A and B in lockstep and compares them. Throws exportlens::Error (Run,
/// Usage) naming the node and op when either run fails, Cancelled on cancel.
NumericsResult run_numerics(const NumericsRequest& request);

/// The node names a reference file records values for (read without running anything).
std::vector<std::string> reference_names(const std::filesystem::path& reference);

/// One value of a program as the tensor viewer shows it: a weight, buffer or
/// constant read from its archive (no run), without LibTorch in the caller.
std::optional<TensorSnapshot> weight_snapshot(const ir::ExportedProgram& program, const std::string& target,
                                              int64_t max_elements = 1 << 24);

}  // namespace exportlens::numerics

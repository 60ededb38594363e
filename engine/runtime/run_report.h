#pragma once
// What a run reports, without LibTorch types: the outputs summarized, per-node
// times (host clock on the CPU, CUDA events on a GPU), the kernels each node
// launched and the device memory it left live, the CUDA-graph replay, the
// comparison with the CPU reference and what a precision choice cast.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace exportlens::runtime {

/// What one value looks like, for reports.
struct ValueSummary {
  std::string kind;  // "tensor", "int", "float", "bool", "none", "other"
  std::string dtype;  // "torch.float32"
  std::vector<int64_t> shape;
  double min = 0, max = 0, mean = 0;  // tensors with elements
  std::string text;  // a short human-readable rendering
};

/// One GPU kernel a node launched (CUPTI activity record).
struct KernelRecord {
  std::string name;     // demangled where CUPTI gives a mangled name
  double start_ms = 0;  // from the start of the profiled run
  double ms = 0;
  std::array<int, 3> grid{}, block{};
};

struct NodeTime {
  std::string node;
  double milliseconds = 0;   // in the median run (the timed run whose total is the median)
  std::string op;            // "aten.linear.default"
  double start_ms = 0;       // offset from the start of the median run
  std::vector<KernelRecord> kernels;  // CUDA runs with kernel recording
  /// Device memory after the node (bytes the caching allocator holds for
  /// tensors) and the peak while it ran; CUDA runs only.
  std::optional<int64_t> live_bytes, peak_bytes;
};

/// Tolerances of torch.testing.assert_close for a dtype.
struct Tolerance {
  double rtol = 0, atol = 0;
};

/// One output (or node value) of the run against the reference's.
struct ValueComparison {
  std::string name;      // the output's or node's name
  std::string mismatch;  // set when not comparable: "shape [2, 3] vs [2, 4]", "kind int vs tensor"
  double max_abs = 0;    // max |run - reference| over the elements (NaN where one side is NaN and the other not)
  double max_rel = 0;    // max |run - reference| / |reference| over elements with a nonzero reference
  int64_t mismatched = 0;  // elements outside atol + rtol * |reference|
  int64_t elements = 0;
  bool close = false;    // allclose with `tolerance` (equal NaNs count as equal), and comparable
  Tolerance tolerance;
  std::string dtype;     // the run's dtype the tolerance is for
};

struct Comparison {
  std::string reference_device = "cpu";
  std::string reference_precision;  // "float32 (as exported)"
  double reference_ms = 0;
  std::vector<ValueComparison> outputs;
  bool all_close = false;
  /// Per node (--compare-nodes): every compared node in graph order, and the
  /// first whose value is beyond tolerance.
  std::vector<ValueComparison> nodes;
  std::optional<std::string> first_divergent_node;
  std::string nodes_note;  // why some nodes were not compared
};

/// What a precision choice cast to its dtype, and what it left alone.
struct CastReport {
  std::string precision;  // "bfloat16"; empty: as exported, nothing cast
  int parameters = 0, buffers = 0, inputs = 0;  // floating tensors cast (as nn.Module.to(dtype) casts)
  int kept = 0;  // tensors left as they are: integer, bool, complex, lifted constants
  std::string text() const;  // "cast to bfloat16: 4 parameters, 1 input; 2 other tensors kept"
};

/// CUDA graph capture of the whole program and its replay.
struct CudaGraphReport {
  bool captured = false;
  std::string why;       // why it could not be captured: the node and what it does
  double replay_ms = 0;  // median GPU time of one replay
  double eager_ms = 0;   // median GPU time of one eager run, same inputs
  int replays = 0;
  std::optional<bool> replay_matches_eager;  // outputs of a replay equal the eager ones (no buffer mutation)
};

/// One device this process can run on.
struct DeviceInfo {
  int index = 0;
  std::string name;  // "NVIDIA H200"
  int64_t total_bytes = 0;
  int major = 0, minor = 0;  // compute capability
  std::string str() const;   // "cuda:0  NVIDIA H200  141 GiB  sm_90"
};

/// The median of run times (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

struct RunReport {
  std::string device;
  std::vector<ValueSummary> inputs;
  std::vector<ValueSummary> outputs;
  std::vector<std::string> output_names;  // the graph's user outputs, in order
  std::vector<NodeTime> node_times;
  std::string time_source;  // "host clock", "CUDA events"
  double total_ms = 0;      // the median run's time (device time for CUDA)
  double host_total_ms = 0; // median host wall time of a whole timed run, synchronized
  std::vector<double> run_ms;  // each timed run
  int warmup = 0, repeat = 1;
  CastReport cast;
  std::optional<Comparison> comparison;
  std::optional<CudaGraphReport> cuda_graph;
  std::string kernels_note;  // why there are no kernel records (empty when recorded)
  std::string memory_note;   // why there is no memory timeline
  std::optional<int64_t> peak_bytes;  // device peak over the profiled run
};

}  // namespace exportlens::runtime

#pragma once
// Where two runs of a program part ways: per compared node, the error between
// run A (the baseline) and run B (the run under test) — max abs and max rel
// error, MSE, SNR, cosine similarity, NaN/Inf counts —, the error the node
// introduces (its B computation fed A's inputs, against A) beside the error
// it inherits, the first divergent node, and the first node that turns finite
// inputs into NaN or Inf. Plain data, no LibTorch: the CLI and the GUI read it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace exportlens::numerics {

/// How far B's value is from A's, over every element (lists and tuples: all
/// their tensors together), computed in float64.
struct ErrorStats {
  int64_t elements = 0;
  double max_abs = 0;        // max |b - a|
  double max_rel = 0;        // max |b - a| / |a| over elements with a != 0
  double mse = 0;            // mean (b - a)^2
  double snr_db = 0;         // 10 log10(sum a^2 / sum (b - a)^2); +inf when equal
  double cosine = 1;         // <a, b> / (|a| |b|); 1 when both are zero
  int64_t nan_a = 0, inf_a = 0, nan_b = 0, inf_b = 0;
  bool beyond_tolerance = false;  // not allclose with torch.testing's dtype-aware tolerances
  double rtol = 0, atol = 0;      // the tolerance used

  bool exact() const { return max_abs == 0 && nan_a == nan_b && inf_a == inf_b; }
  /// The value of a metric by name: "max_abs", "max_rel", "mse", "snr_db", "cosine".
  double metric(const std::string& name) const;
};

/// Metrics a user can sort and colour by, and which way is worse.
const std::vector<std::string>& metric_names();
bool larger_is_worse(const std::string& metric);  // snr_db and cosine: smaller is worse

struct NodeNumerics {
  std::string node;     // A's node (the program's, as the user reads it)
  std::string b_node;   // B's node compared with it (another name in a lowered or other program)
  std::string op;       // A's op key
  std::string value;    // A's value: "f32[2, 16]"
  ErrorStats total;     // B against A
  /// B's computation of this node fed A's inputs, against A: the error the node
  /// itself introduces. Unset where B's computation could not be run on A's inputs.
  std::optional<ErrorStats> introduced;
  /// total's max_abs minus introduced's (what it inherits from its inputs), when both are known.
  std::optional<double> inherited_max_abs;
  bool nonfinite_origin_a = false;  // finite inputs, NaN/Inf out, in run A
  bool nonfinite_origin_b = false;  // the same in run B
};

struct NumericsReport {
  std::string a_label, b_label;  // "as exported on cpu", "bfloat16 on cpu", "core ATen", "reference ref.pt"
  std::vector<NodeNumerics> nodes;  // in A's graph order
  /// Indices into nodes: the first node beyond tolerance (B against A); the
  /// first node whose own error (introduced) is beyond tolerance; the first
  /// node turning finite inputs into NaN/Inf, in B and in A.
  std::optional<size_t> first_divergent, first_introducing, first_nonfinite_b, first_nonfinite_a;
  std::vector<std::pair<std::string, ErrorStats>> outputs;  // per user output
  bool all_outputs_close = true;
  int skipped = 0;  // nodes with no counterpart in B, or values not comparable (shapes differ)
  std::vector<std::string> notes;
  double seconds = 0;      // the whole numerics run
  uint64_t peak_bytes = 0; // the most the run held at once (CPU), when measured

  /// Node indices by introduced error (its `metric`, worst first); nodes
  /// without an introduced error by their total error after them.
  std::vector<size_t> worst(const std::string& metric, size_t top) const;
  const NodeNumerics* find(const std::string& node) const;
};

/// The report as text: the outputs, the first divergent node and NaN/Inf
/// origin, then the `top` worst nodes by introduced `metric`.
std::string format_numerics(const NumericsReport& report, const std::string& metric, size_t top);

/// The report as JSON, for tools.
std::string numerics_json(const NumericsReport& report);

}  // namespace exportlens::numerics

#pragma once
// What changed between two programs: the nodes (matched by
// engine/matching), the graph signature, the guards and range constraints
// under one spec, the weights, and a summary by module call with stacks
// folded.
//
//   const matching::IndexedProgram a(ep_a), b(ep_b);
//   const diff::ProgramDiff d = diff::diff_programs(a, b);
//   d.same();                        // nothing differs
//   d.nodes[k].status / .changes     // per node: same, changed (what), added, removed
//   diff::format_diff(a, b, d);      // the text `exportlens diff` prints
//
// Node names, stack traces and the order of independent ops are no
// differences; symbol names are not either (A's `s0` is B's `s77` when they
// size the same input dim).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/cancel_token.h"
#include "engine/matching/program_matching.h"

namespace exportlens::diff {

enum class Status { Same, Changed, Added, Removed };
std::string_view status_name(Status s);  // "same", "changed", "added", "removed"

/// What changed of a matched node, one flag each.
enum class Aspect : unsigned {
  Target = 1,      // another op
  Overload = 2,    // the same op, another overload
  Arguments = 4,   // an argument that is not a node (a scalar, a list of ints, a dtype)
  Inputs = 8,      // reads another matched value
  Shape = 16,      // sizes (symbols read through the input correspondence)
  Dtype = 32,
  Strides = 64,
};
std::string_view aspect_name(Aspect a);  // "target", "overload", "arguments", "inputs", "shape", "dtype", "strides"

struct Change {
  Aspect aspect;
  std::string what;    // "target", "arg 1", "dim", "input 0", "shape"
  std::string before;  // in A
  std::string after;   // in B
};

struct NodeDiff {
  Status status = Status::Same;
  int a = -1, b = -1;  // node indices; -1 where the node is not in that program
  unsigned aspects = 0;  // Aspect flags
  std::vector<Change> changes;
  matching::NodeMatch match;  // how a and b were paired (confidence, reason)
  bool has(Aspect x) const { return aspects & static_cast<unsigned>(x); }
};

/// One entry of the signature that differs ("input x", "buffer bn.running_mean", "output 0").
struct SignatureChange {
  Status status = Status::Changed;
  std::string what;
  std::string before, after;  // "USER_INPUT f32[s77, 10]"
};

/// Guards and range constraints, both programs solved under one spec: every
/// input dim either file keeps symbolic as Dim.AUTO (symbols are then named
/// by their input alike in both).
struct GuardDiff {
  bool compared = false;
  std::string note;  // why not compared, or what the spec was
  std::string spec;  // the spec both were solved under
  std::vector<std::string> only_a, only_b;        // guards
  std::vector<SignatureChange> ranges;             // range constraints by symbol
  std::vector<SignatureChange> input_shapes;       // the solved input shapes
};

struct WeightDiff {
  Status status = Status::Same;
  std::string kind;            // "parameter", "buffer", "constant"
  std::string name_a, name_b;  // state-dict keys
  std::string before, after;   // "f32[32, 16]"
  /// With values compared: the largest |a - b| (nullopt: not compared, `note` says why).
  std::optional<double> max_abs_diff;
  std::string note;
};

/// One line of the summary by module call.
struct ModuleChange {
  Status status = Status::Changed;
  int scope_a = -1, scope_b = -1;
  std::string path;  // "layers.3.attn", or a stack's "layers.0–31"
  std::string text;  // "scaled_dot_product_attention → 9 ops (matmul, softmax, …)"
};

struct DiffCounts {
  size_t same = 0, changed = 0, added = 0, removed = 0;
};

struct ProgramDiff {
  matching::ProgramMatching matching;
  /// Every node of both programs once: A's in graph order, each of B's added
  /// nodes after the last node before it that has a counterpart.
  std::vector<NodeDiff> nodes;
  DiffCounts counts;  // of the nodes
  std::vector<SignatureChange> signature;
  GuardDiff guards;
  std::vector<WeightDiff> weights;  // those that differ (all of them with values compared)
  std::vector<ModuleChange> modules;

  /// Nothing differs: nodes, signature, guards, weights (and values, when compared).
  bool same() const;
};

struct DiffOptions {
  /// Compare the weights' values (reads them; raw bytes decoded here).
  bool weight_values = false;
  /// The ops' schemas (argument names and defaults: runtime::dispatcher_signatures(),
  /// LibTorch's); without it the files' own (names only, so an argument one file
  /// leaves at its default and the other passes is a difference).
  ir::OpSignatureLookup signatures;
  /// Solve both under one spec and compare guards and ranges.
  bool guards = true;
  matching::MatchOptions matching;
  const CancelToken* cancel = nullptr;
};

ProgramDiff diff_programs(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                          const DiffOptions& options = {});

}  // namespace exportlens::diff

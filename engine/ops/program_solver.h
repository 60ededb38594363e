#pragma once
// Re-solving a dynamic_shapes spec on a loaded program, the way torch.export
// would have traced it with that spec:
//
//  * fresh symbols per the spec (hints = the example sizes the file records),
//  * every node's shape rule in graph order (guards with node provenance),
//  * the guards the file recorded (guards_code: if/assert/_check in user code
//    and op guards ExportLens does not model), replayed where the trace met
//    them, and the graph's _assert_scalar nodes,
//  * torch's end-of-trace checks, solver and suggested fixes.
//
// What a .pt2 can and cannot tell (see engine/README.md): user control flow
// is visible only through guards_code (torch 2.13 records it; older files
// have none, and then only the graph's ops and asserts constrain shapes);
// guards on data-dependent values never reach guards_code (they stay as
// _assert_scalar nodes); a branch the example did not take is gone.
//
// PreparedProgram does the per-program work once (inputs, parsed recorded
// guards and where each belongs in the trace, each node's source line), so
// that a re-solve after a spec edit only propagates. It is immutable
// afterwards: solves may run on a worker thread, one at a time or several in
// parallel. It owns its solves' memo (symbolic/solve_memo.h: the symbolic
// work a re-solve would otherwise redo), lent to one solve at a time.
//
//   const ir::ExportedProgram ep = serde::read_pt2(path);
//   const ops::PreparedProgram program(ep);
//   symbolic::DynamicShapesSpec spec = program.recorded_spec();   // a starting table
//   ops::SolveResult r = ops::solve(program, "dx = Dim('dx')\n{'x': (dx, None)}");
//   r.status, r.range_constraints, r.input_shapes, r.guards[i].origin.node,
//   r.violations[i].origin, r.suggested_fixes_text, r.fixed_spec_text ("Apply")
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/spec_binding.h"

namespace exportlens::symbolic {
class SolveMemo;
}

namespace exportlens::ops {

/// One guards_code entry and its place in the trace.
struct RecordedGuard {
  std::string text;         // as recorded
  symbolic::Expr expr;      // over source-named symbols
  int anchor_node = -1;     // index into the graph's node list (-1: after the last node)
  bool after_node = false;  // replay after (true) or before (false) the anchor node
  std::string explained_by; // the node whose shape rule reproduces it, if any
};

class PreparedProgram {
 public:
  /// `program` must outlive this object.
  explicit PreparedProgram(const ir::ExportedProgram& program);
  ~PreparedProgram();
  PreparedProgram(const PreparedProgram&) = delete;
  PreparedProgram& operator=(const PreparedProgram&) = delete;

  const ir::ExportedProgram& program() const { return *program_; }
  const std::vector<symbolic::ExampleInput>& inputs() const { return inputs_; }
  /// The forward() arguments' pytree when one of them is a tuple, list, dict
  /// or registered dataclass (from the module call graph's in_spec; each
  /// input is then one leaf of it, ExampleInput::path saying where); null
  /// when every argument is an input of its own.
  const std::vector<symbolic::InputTree>* input_tree() const { return arguments_.empty() ? nullptr : &arguments_; }
  const std::vector<RecordedGuard>& recorded_guards() const { return recorded_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// The graph's nodes in order (cached: a re-solve walks them several times).
  const std::vector<ir::Node*>& nodes() const { return nodes_; }
  /// A spec with every dim the file keeps symbolic as Dim.AUTO, the others static.
  symbolic::DynamicShapesSpec recorded_spec() const;

  /// This program's solve memo for the length of one solve. A solve that
  /// starts while another holds it gets a fresh one, which the program keeps
  /// when the loan ends only if it has none then.
  class MemoLoan {
   public:
    explicit MemoLoan(const PreparedProgram& program);
    ~MemoLoan();
    MemoLoan(const MemoLoan&) = delete;
    MemoLoan& operator=(const MemoLoan&) = delete;
    symbolic::SolveMemo* get() const { return memo_.get(); }

   private:
    const PreparedProgram& program_;
    std::unique_ptr<symbolic::SolveMemo> memo_;
  };

 private:
  void read_inputs();
  /// The input a guard's source names ("L['x'][0].size()[1]") and, in `out`, what of it (size 1).
  std::optional<size_t> input_of_source(const std::string& source, symbolic::SourceName& out) const;
  void read_layouts();
  void parse_recorded_guards();
  void attribute_recorded_guards();

  const ir::ExportedProgram* program_;
  std::vector<ir::Node*> nodes_;
  std::vector<symbolic::ExampleInput> inputs_;
  std::vector<symbolic::InputTree> arguments_;  // empty unless some argument is a container
  std::unordered_map<std::string, size_t> input_by_source_;  // "L['x'][0]" -> index into inputs_
  std::vector<const ir::Node*> input_nodes_;  // placeholder per input (nullptr for constants)
  std::vector<RecordedGuard> recorded_;
  std::vector<Diagnostic> diagnostics_;
  /// Each node's output strides in the file: contiguous, or strided (a view:
  /// its strides are re-read in each spec's symbols), or none / unknown.
  enum class Layout : char { Unknown, Contiguous, Strided };
  static Layout layout_of(const ir::Node& n);
  std::vector<Layout> layouts_;  // by node index
  std::vector<std::string> locations_, op_labels_;  // by node index: "file.py:12 in forward", "aten.add.Tensor"
  mutable std::mutex memo_mutex_;
  mutable std::unique_ptr<symbolic::SolveMemo> memo_;  // null while lent
  friend class Propagation;
};

struct SolveOptions {
  bool log = true;          // collect the TORCH_LOGS-style guard log
  bool node_shapes = true;  // report every node's symbolic shape
  /// Replay the file's recorded guards (guards_code). Off, only the shape
  /// rules and the graph's asserts constrain shapes: what a file without
  /// guards_code gives, and how the tests prove the rules emit torch's guards.
  bool replay_recorded_guards = true;
  /// draft_export-style: go on past a data-dependent guard (that node's
  /// output keeps its example sizes) and list every problem in
  /// SolveResult::problems (ops/problem_report.h).
  bool collect_all = false;
};

/// Solve `spec` on the program. Never throws for bad specs or violations:
/// they come back as status error / violation.
SolveResult solve(const PreparedProgram& program, const symbolic::DynamicShapesSpec& spec,
                  const SolveOptions& options = {});
/// Parses the Python text first (a parse error is status error, kind "spec").
SolveResult solve(const PreparedProgram& program, std::string_view spec_text, const SolveOptions& options = {});

}  // namespace exportlens::ops

#pragma once
// One export attempt explained: torch's error and the user line where it
// arose, the spec entries it violated with torch's suggested fixes, the
// guards in the order torch added them (each with the user's line and the
// framework stack behind it), the symbols with the input dimension and spec
// entry each stands for, the specializations with their reasons, and for a
// data-dependent error the line that made the unbacked value and torch's
// torch._check hints. It joins what the capture recorded around the call
// (attempt.json) with what torch's own trace log of the call says, and works
// from either alone (a plain TORCH_TRACE log has no error message).
#include <optional>
#include <string>
#include <vector>

#include "engine/capture/capture_folder.h"
#include "engine/capture/trace_facts.h"

namespace exportlens::ir {
class Graph;
}

namespace exportlens::capture {

/// Where a source torch names ("L['x'].size()[0]") lies among the inputs.
struct InputDim {
  std::string input;  // the input's name ("x") or pytree path ("args[1][0]")
  int dim = -1;       // -1: the source is not a size
  std::string text() const;  // "x.shape[0]"
};

struct SymbolBinding {
  std::string symbol;  // "s77", "u0"
  bool unbacked = false;
  std::string source;  // "L['x'].size()[0]"
  std::optional<InputDim> input;
  std::string spec_entry;  // the spec's entry for that dim: "batch", "2*batch", "Dim.AUTO", "" (none)
  std::string range, hint;
  std::optional<PythonFrame> origin;  // the user line that made it (an unbacked value's `.item()`)
};

struct GuardLine {
  std::string expr;          // sympy text over symbols: "Eq(s77, 10)"
  std::string over_inputs;   // the same over the inputs: "Eq(x.shape[0], 10)"
  std::optional<PythonFrame> user_frame;
  std::string user_code;     // the user's line of code (verbose logs say it; else the frame's)
  PythonStack stack;         // the whole stack, outermost first
  std::vector<std::string> symbols;
  std::vector<std::string> nodes;  // graph nodes made by the same user line (link_graph)
};

struct ViolatedEntry {
  std::string dim;      // the spec's Dim name ("b"); empty when torch names none
  std::string source;   // "L['x'].size()[0]"
  std::optional<InputDim> input;
  std::string message;  // torch's bullet, whole
  std::vector<std::string> fixes;  // torch's suggested fixes for this Dim
  std::vector<int> guards;         // indices into AttemptDiagnosis::guards behind it
};

struct SpecializationLine {
  SpecializationRecord record;
  std::optional<InputDim> input;
  std::optional<PythonFrame> user_frame;
};

struct DataDependentLine {
  std::string expr;                        // "u0 > 0", "zuf0 > 0.0"
  std::vector<std::string> symbols;        // the unbacked symbols in it
  std::optional<PythonFrame> origin;       // where the unbacked value was made (`.item()`, `nonzero`)
  std::optional<PythonFrame> guard_frame;  // where the trace needed its value (`if n > 0:`)
  std::vector<std::string> hints;          // torch._check(...) lines torch suggests
  /// What the torch.export tutorials teach for this kind of data dependence,
  /// when torch's message suggests nothing itself: a branch on data becomes
  /// torch.cond; a size from data gets torch._check / torch._check_is_size.
  std::string advice;
};

struct AttemptDiagnosis {
  bool ok = false;
  std::string failure_class;   // "constraint_violation", "data_dependent", ...
  std::string error_type;      // "UserError"
  std::string headline;        // the message's first line
  std::string message;         // the whole message
  /// Where the error arose: for a constraint violation the user line of the
  /// guard behind it, else the innermost user frame of the traceback.
  std::optional<PythonFrame> user_frame;
  std::optional<PythonFrame> raised_at;  // the traceback's user frame, when user_frame is another
  std::vector<ViolatedEntry> violations;
  std::vector<std::string> suggested_fixes;
  std::vector<GuardLine> guards;
  std::vector<SymbolBinding> symbols;
  std::vector<SpecializationLine> specializations;
  std::vector<DataDependentLine> data_dependent;
  std::vector<FakeKernelRecord> fake_kernels;
  /// The partial graph of a failed trace (or the printed program), as text.
  std::optional<GraphText> graph_text;
  std::map<std::string, int> other_events;
  std::vector<std::string> notes;  // what the log reader skipped
  std::string torch_version;
  std::string torch_dir;  // torch's package folder: which frames of a stack are torch's
};

/// Explains an attempt of a capture (its attempt.json and its trace log).
AttemptDiagnosis diagnose(const Capture& capture, const Attempt& attempt, const serde::ReadLimits& limits = {});
/// Explains a plain trace log (no capture around it).
AttemptDiagnosis diagnose(const TraceLog& log, const serde::ReadLimits& limits = {});

/// Fills each guard's `nodes`: the nodes of `graph` whose source line is the guard's user line.
void link_graph(AttemptDiagnosis& diagnosis, const ir::Graph& graph);

/// "L['x'].size()[0]" -> x, dim 0 (names from `inputs` where the source uses
/// strict export's flat argument list); nullopt for a source it cannot read.
std::optional<InputDim> input_of_source(const std::string& source, const std::vector<CapturedInput>& inputs);

}  // namespace exportlens::capture

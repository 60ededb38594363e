#pragma once
// What a structured trace log says about one export, read from its events:
// the inputs torch described, the symbols it made (with their source and
// range), the guards in the order torch added them (each with the user's line,
// found by leaving out torch's own frames), specializations with their reason,
// data-dependent errors, fake-kernel problems, partial and finished graphs,
// the provenance of expressions and compilation_metrics' failure. Every field
// is optional in the log, so every field here may be empty.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/capture/python_frames.h"
#include "engine/capture/trace_log.h"

namespace exportlens::capture {

/// A tensor torch described when it made the fake inputs: its source and metadata.
struct DescribedInput {
  std::string source;  // "L['x']", "L['flat_args'][0]"
  std::vector<int64_t> sizes;
  std::string dtype;   // "torch.float32"
  std::string device;  // "cpu"
};

struct SymbolRecord {
  std::string symbol;  // "s77", "u0", "zuf0"
  bool unbacked = false;
  std::string hint;    // "10" (backed symbols: the example value)
  std::string range;   // "[2, 64]", "[-oo, oo]"
  std::string source;  // "L['x'].size()[0]" (backed symbols)
  PythonStack stack;   // where torch made it (innermost last)
  int event = -1;      // index into TraceLog::events
};

struct GuardRecord {
  std::string expr;    // sympy text: "Eq(s77, 10)", "s77 > 4"
  PythonStack stack;
  std::map<std::string, std::string> symbol_to_sources;  // verbose logs only
  std::string user_code;  // frame_locals' "loc": the user's line of code (verbose logs)
  bool verbose = false;   // from a guard_added event (TORCH_DTRACE / draft_export)
  int event = -1;
};

struct SpecializationRecord {
  std::string symbol, value, reason;  // reason: "range_refined_to_singleton", ...
  std::vector<std::string> sources;
  PythonStack stack;
  int event = -1;
};

/// A guard on a value torch cannot know while tracing (`.item()`, `nonzero`).
struct DataDependentRecord {
  std::string expr;
  PythonStack stack;
  int event = -1;
};

struct FakeKernelRecord {
  std::string kind;    // "missing_fake_kernel", "mismatched_fake_kernel"
  std::string op;
  std::string reason;
  int event = -1;
};

/// A graph the log carries as text: the partial graph of a failed trace, a
/// Dynamo graph, or the exported program torch printed.
struct GraphText {
  std::string kind;  // "make_fx_fail_partial", "dynamo_output_graph", "exported_program"
  std::string code;
  int event = -1;
};

/// One expression torch made (verbose logs): the provenance DAG of the symbolic values.
struct ExpressionRecord {
  int64_t id = 0;
  std::string method;  // "add", "gt", "sym_max", ...
  std::string result;
  std::vector<std::string> arguments;
  std::vector<int64_t> argument_ids;
  PythonStack stack;
};

/// compilation_metrics (strict export): the failure as torch recorded it.
struct CompileFailure {
  std::string fail_type;    // "ConstraintViolationError", "UserError", "Unsupported"
  std::string fail_reason;  // torch's whole message
  std::string user_file;    // fail_user_frame_filename (the old strict tracer only)
  int user_line = 0;
  int event = -1;
};

struct TraceFacts {
  std::string torch_version;  // "2.13.0+cpu"
  /// Where torch's own package lies, as the log's file names tell it ("…/site-packages/torch").
  std::string torch_dir;
  std::vector<DescribedInput> inputs;
  std::vector<SymbolRecord> symbols;
  std::vector<GuardRecord> guards;
  std::vector<SpecializationRecord> specializations;
  std::vector<DataDependentRecord> data_dependent;
  std::vector<FakeKernelRecord> fake_kernels;
  std::vector<GraphText> graphs;
  std::vector<ExpressionRecord> expressions;
  std::vector<CompileFailure> failures;
  /// Events read but not used above, by name, with their count: "chromium_event: 12".
  std::map<std::string, int> other_events;

  const SymbolRecord* symbol(const std::string& name) const;
};

/// Reads the facts of `log`. Never throws for a missing or odd field: what
/// cannot be read is left out and the event counted under other_events.
TraceFacts read_trace_facts(const TraceLog& log, const serde::ReadLimits& limits = {});

}  // namespace exportlens::capture

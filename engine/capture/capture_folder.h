#pragma once
// A capture folder: what `exportlens capture` (the exportlens_capture package,
// resources/python/) recorded of every torch.export call a user's script made,
// failed or not. manifest.json lists the attempts; each attempt_NNN/ holds
// attempt.json (call site, model, inputs, the spec as Python text, the error
// with torch's message, traceback and suggested fixes), the call's own trace
// log, and the program (.pt2) when the export succeeded or a draft export ran.
// Reading one never runs anything: it is untrusted input like a .pt2.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/capture/python_frames.h"
#include "engine/serde/read_limits.h"

namespace exportlens::capture {

struct CapturedInput {
  std::string path;    // the pytree path torch prints: "args[0]", "kwargs['mask']"
  std::string name;    // the forward parameter it binds to ("x"), when known
  std::string kind;    // "tensor", "int", "float", "bool", "str", "none", "other"
  std::vector<int64_t> shape;
  std::string dtype;   // "torch.float32"
  std::string device;
  std::string value;   // a non-tensor's value, as text
};

struct CapturedError {
  std::string type;        // "torch._dynamo.exc.UserError"
  std::string short_type;  // "UserError"
  std::string message;     // str(exception), whole
  PythonStack traceback;   // outermost first
  std::string traceback_text;
  std::optional<PythonFrame> user_frame;
  std::vector<std::string> suggested_fixes;  // the lines under "Suggested fixes:"
  std::string failure_class;  // "constraint_violation", "data_dependent", "unsupported", ...
};

struct DraftResult {
  std::filesystem::path program;       // draft/program.pt2 (empty when none)
  std::filesystem::path program_text;  // draft/program.txt
  std::filesystem::path report;        // draft/report.json
  std::filesystem::path trace;         // draft/trace/
  std::string error;                   // why draft_export failed too, if it did
};

struct Attempt {
  int index = 0;                 // 1-based, in call order
  std::filesystem::path dir;     // the attempt's folder
  std::string function;          // "export", "draft_export"
  PythonFrame call_site;
  std::string model_class;
  std::optional<bool> strict;
  std::string torch_version;
  std::vector<CapturedInput> inputs;
  bool spec_given = false;
  std::string spec_text;         // the dynamic_shapes as Python text `check --spec` reads
  bool spec_exact = true;        // false: part of the spec could not be written as text
  bool spec_override = false;    // a re-run with an edited spec
  std::string started;
  double seconds = 0;
  bool ok = false;
  std::filesystem::path program;       // program.pt2 on success (empty when none)
  std::filesystem::path program_text;
  std::string save_error;
  std::optional<CapturedError> error;
  std::filesystem::path partial_graph;  // partial_graph.txt
  std::filesystem::path trace;          // trace/ (empty when none)
  std::optional<DraftResult> draft;

  /// "✓ 1 Model (model.py:12)" style summary text pieces.
  std::string failure_class() const { return error ? error->failure_class : std::string(); }
};

struct Capture {
  std::filesystem::path dir;
  int format_version = 0;
  std::string capture_version;  // the package's version (ExportLens' own)
  std::string torch_version;
  std::string torch_dir;        // for telling torch's frames from the user's
  std::string python_version, python_executable;
  std::string script;
  std::vector<std::string> argv;
  std::string cwd, started;
  double seconds = 0;
  std::optional<int> exit_code;  // unset while the script still runs (or was killed)
  std::string exit_exception;    // "ValueError: ..." when the script ended by an exception
  std::vector<Attempt> attempts;

  FrameFilter frames() const { return FrameFilter(torch_dir); }
  const Attempt* attempt(int index) const;
};

/// Whether `path` is a capture folder (holds manifest.json of this format) or its manifest.json.
bool is_capture(const std::filesystem::path& path);

/// Reads a capture folder (or its manifest.json). Files an attempt names must
/// lie inside the folder. Throws exportlens::Error naming the file and JSON path.
Capture read_capture(const std::filesystem::path& path, const serde::ReadLimits& limits = {});

}  // namespace exportlens::capture

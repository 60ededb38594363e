#pragma once
// Running a user's script under the capture package, in the user's own
// Python: `PY -m exportlens_capture -o DIR [--draft] [--spec-override F] --
// SCRIPT.py ARGS...` with the package that ships with this ExportLens on
// PYTHONPATH. The CLI runs it here (stdio passed through, cancellable); the
// GUI runs the same command line through QProcess to stream its output.
// This runs the user's code, which is its purpose: only ever on request,
// never when a capture folder or log is opened.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/cancel_token.h"
#include "engine/capture/python_frames.h"

namespace exportlens::capture {

struct CaptureRequest {
  std::filesystem::path script;
  std::vector<std::string> script_args;
  std::filesystem::path output_dir;
  std::string python;                   // empty: the first python3 on PATH
  bool draft = false;                   // also run draft_export for a failed call
  /// Each call's structured trace: "dtrace" (the package's default: the detail
  /// torch writes for draft export, 10-25x the export's time), "plain", "none"; "" = the default.
  std::string trace;
  std::filesystem::path spec_override;  // a re-run's edited specs (write_spec_override)
  std::filesystem::path package_dir;    // the folder holding exportlens_capture/
};

/// A command line, ready for exec or QProcess.
struct CaptureCommand {
  std::string program;
  std::vector<std::string> arguments;
  std::vector<std::pair<std::string, std::string>> environment;  // set on top of the caller's
  std::filesystem::path working_dir;
};

/// The command that captures `request`. Throws exportlens::Error (Usage) when
/// the interpreter, the script or the package cannot be found.
CaptureCommand capture_command(const CaptureRequest& request);

/// Where the capture package lies for the executable at `executable`: the
/// installed `share/exportlens/python` beside it, else this source tree's
/// `resources/python` (a build tree); EXPORTLENS_PYTHON_DIR overrides both.
std::filesystem::path find_capture_package(const std::filesystem::path& executable);

/// `requested`, or the first `python3` (then `python`) on PATH; empty when none.
std::string find_python(const std::string& requested);

/// Runs the command with this process' stdin, stdout and stderr (stdout sent
/// to stderr when `stdout_to_stderr`, so a caller's own stdout stays clean),
/// and returns the script's exit status (128 + N for a signal). `cancel`
/// stops the script (SIGTERM, then SIGKILL after two seconds).
int run_capture(const CaptureCommand& command, bool stdout_to_stderr = false, const CancelToken* cancel = nullptr);

/// Writes the file `--spec-override` reads: the `occurrence`-th call from
/// `call_site` gets `spec_text` as its dynamic_shapes.
struct SpecOverride {
  PythonFrame call_site;
  int occurrence = 1;
  std::string spec_text;
};
void write_spec_override(const std::filesystem::path& file, const std::vector<SpecOverride>& overrides);

}  // namespace exportlens::capture

#pragma once
// Child processes for the engine suites: the exportlens executable
// (EXPORTLENS_BINARY) run headless, and the oracle's Python
// (EXPORTLENS_PYTHON), to ask torch about what ExportLens wrote.
#include <string>
#include <vector>

namespace exportlens::unit {

struct ProcessResult {
  int code = -1;  // -1: killed by a signal
  std::string out, err;
};

/// Runs `program` with `args`, stdin from /dev/null, stdout and stderr
/// captured, without the variables named in `unset` (DISPLAY, ...). One
/// that runs past `timeout_s` is killed and fails the running test.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::vector<std::string>& unset = {}, int timeout_s = 120);

/// `program args...` with no display and no Qt platform: the CLI must not need one.
ProcessResult run_headless(const std::string& program, const std::vector<std::string>& args, int timeout_s = 120);

/// `python -c code args...` with the given interpreter.
ProcessResult run_python_code(const std::string& python, const std::string& code,
                              const std::vector<std::string>& args, int timeout_s = 120);

#ifdef EXPORTLENS_BINARY
inline ProcessResult run_exportlens(const std::vector<std::string>& args, int timeout_s = 120) {
  return run_headless(EXPORTLENS_BINARY, args, timeout_s);
}
#endif
#ifdef EXPORTLENS_PYTHON
/// `python -c code args...` with the venv's Python (torch).
inline ProcessResult run_python(const std::string& code, const std::vector<std::string>& args, int timeout_s = 120) {
  return run_python_code(EXPORTLENS_PYTHON, code, args, timeout_s);
}
#endif

}  // namespace exportlens::unit

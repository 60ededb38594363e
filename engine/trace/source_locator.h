#pragma once
// Where model code called into LibTorch: the innermost stack frame that
// belongs to model source, found from the call stack and the binaries' debug
// information (GCC's libbacktrace). Frames of LibTorch, the C++ runtime, the
// tracer and the SDK headers are skipped. Results are cached per return
// address, so a trace pays the symbol lookup once per call site.
//
// Model code built without debug information has no locations (nodes then
// carry no stack trace, as "where available" allows).
#include <optional>
#include <string>

#include "engine/ir/node.h"

namespace exportlens::trace {

class SourceLocator {
 public:
  /// The model's frame on the current thread's stack, if any.
  static std::optional<ir::SourceLocation> model_frame();

  /// A location from an SDK call site (std::source_location), completed with its code line.
  static ir::SourceLocation at(const char* file, int line, const char* function);

  /// Python traceback text for a node's stack_trace: `File "f", line N, in fn\n    code`.
  static std::string stack_trace_text(const ir::SourceLocation& l);
  /// "file.cpp:12 in forward" (guard provenance).
  static std::string describe(const ir::SourceLocation& l);

  /// The stripped text of line `line` of `file` ("" if unreadable).
  static std::string source_line(const std::string& file, int line);
};

}  // namespace exportlens::trace

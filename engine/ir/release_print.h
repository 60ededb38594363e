#pragma once
// print(ep) as an older torch release printed it. ExportLens prints as torch
// 2.13 does (printer.h); the programs in older files are the same, but the
// text around them changed: up to 2.9 FX's codegen put a space before each
// stack-trace comment ("# File: ...") and a node without a stack trace got
// an empty "# " comment (2.6 ... 2.9) or "# No stacktrace found for
// following nodes" (2.5); up to 2.10 the blank lines between statements had
// the code's full indentation; up to 2.7 the graph signature was the repr of
// ExportGraphSignature. 2.11 and 2.12 print as 2.13 does. The tests compare this text with each
// release's own print(ep) (tests/fixtures/old_torch).
#include <string>
#include <string_view>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct TorchRelease {
  int major = 2;
  int minor = 13;
  friend auto operator<=>(const TorchRelease&, const TorchRelease&) = default;
};

/// "2.5.1+cu124" -> 2.5; what no release names (ExportLens' tracer, "<=2.4") -> 2.13.
TorchRelease torch_release_of(std::string_view torch_version);

/// print(ep) in `release`'s layout (2.11 and later: print_program itself).
std::string print_program_as_release(const ExportedProgram& ep, TorchRelease release);

/// repr(ExportGraphSignature) as torch <= 2.7 printed the signature.
std::string signature_repr(const GraphSignature& signature);

}  // namespace exportlens::ir

#pragma once
// The one error of ExportLens: a kind (what went wrong, for code that reacts
// to it), a place (where, for the user) and a message (what, in our words).
// Every layer's errors derive from it, so the CLI and the GUI print the place
// one way and no caller recovers a kind from a chain of catch blocks.
#include <stdexcept>
#include <string>
#include <string_view>

namespace exportlens {

enum class ErrorKind {
  Usage,        // a command line or dialog asked for something that cannot be
  Input,        // a file or text we were given is malformed or lies about itself
  Limit,        // an input is over a bound that keeps memory and time in check
  Spec,         // a dynamic_shapes spec does not parse or does not fit the program
  Constraint,   // torch.export would refuse this spec (violations, suggested fixes)
  DataDependent,  // a guard on a value only known at run time
  Check,        // a torch._check or size check that is false for the example inputs
  Unsupported,  // well-formed, but beyond what ExportLens handles
  Run,          // running a program failed (an op, an input, the device)
  Cancelled,    // the user asked the work to stop
  Internal,     // a bug of ours
};
std::string_view error_kind_name(ErrorKind kind);  // "input", "limit", ...

/// Where an error is, as precisely as the layer that raises it knows; every
/// part is optional. format() joins the parts that are set:
/// "capture/manifest.json: attempts[2].call_site, line 4, column 9: node add_1"
/// (a line joins what it is in as Python's tracebacks do: "dynamic_shapes, line 2, column 7").
struct ErrorPlace {
  std::string file;       // the file or folder the user named
  std::string entry;      // inside it: an archive entry, a capture's attempt file
  std::string path;       // a JSON path or pickle offset inside the entry
  int line = 0;           // a text's line (spec, log), 1-based; 0 when none
  int column = 0;
  std::string node;       // a graph node

  bool empty() const { return file.empty() && entry.empty() && path.empty() && line == 0 && node.empty(); }
  std::string format() const;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, ErrorPlace place, const std::string& message);
  ErrorKind kind() const { return kind_; }
  const ErrorPlace& place() const { return place_; }
  /// The message without the place.
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  ErrorPlace place_;
  std::string message_;
};

}  // namespace exportlens

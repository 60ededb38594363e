#pragma once
// A call's arguments by name, however they were passed: torch <= 2.6 files
// pass an argument with a default by keyword (`linear(x, w, bias = b)`),
// later ones by position (`linear(x, w, b)`), and torch 2.8 leaves out
// trailing arguments equal to their default (`slice(x, 0, 1)` for
// `slice(x, 0, 1, 9223372036854775807)`); all read alike here. Names and
// defaults come from the op's schema: the dispatcher's when the caller has
// it (runtime::dispatcher_signatures(), LibTorch's), else as either
// program's file recorded it (ExportedProgram::file_signatures: names, no
// defaults). Positions beyond what a schema names are "arg N".
#include <map>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::diff {

struct NamedValue {
  std::string name;
  const ir::Argument* value;
};

class CallSchemas {
 public:
  CallSchemas(const ir::ExportedProgram& a, const ir::ExportedProgram& b, ir::OpSignatureLookup lookup);
  /// Positional arguments first, in order, then keyword ones; named as above.
  std::vector<NamedValue> arguments(const ir::Node& node) const;
  /// The schema's default of an argument, when it is a plain value.
  const ir::Argument* default_of(const ir::Node& node, const std::string& name) const;

 private:
  const ir::OpSignature* schema(const ir::Node& node) const;

  const ir::OpSignatureMap& a_;
  const ir::OpSignatureMap& b_;
  ir::OpSignatureLookup lookup_;
  mutable std::map<std::string, std::optional<ir::OpSignature>, std::less<>> looked_up_;
};

}  // namespace exportlens::diff

#pragma once
// Reads the guards a .pt2 records (ExportedProgram.guards_code), which torch
// prints as Python over input sources:
//   "L['x'].size()[0] <= 16", "(L['y'].size()[0]*L['x'].size()[0]) == L['z'].size()[0]",
//   "((-1) + L['z'].size()[0]) == ((1 + L['y'].size()[0]) // 3)", "max(1, ...) != 3".
// Each source becomes a symbol named by its text ("L['x'].size()[0]"), to be
// substituted by whatever expression a ShapeEnv gives that source.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/error.h"
#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

class GuardParseError : public Error {
 public:
  explicit GuardParseError(const std::string& message) : Error(ErrorKind::Input, {}, message) {}
};

/// Throws GuardParseError naming the position on text it does not understand.
Expr parse_python_guard(std::string_view text);

/// The parts of a source name: "L['x'].size()[2]" -> {"x", {}, "size", 2}.
struct SourceName {
  std::string argument;             // "x"
  std::vector<std::string> path;    // nested items after L['x'] ("0" for L['a'][0])
  std::string property;             // "size", "stride", "storage_offset", or "" (the value itself)
  int index = -1;                   // size/stride index
};
bool split_source_name(std::string_view source, SourceName& out);

}  // namespace exportlens::symbolic

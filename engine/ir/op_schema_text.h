#pragma once
// An operator schema read from its text, as torch prints a FunctionSchema
// ("mylib::scale_(Tensor(a0!) state, float factor=1.) -> ()"), without
// LibTorch. A .pt2 names the ops it calls but not their schemas; for ops
// registered from Python (torch.library.custom_op), which LibTorch does not
// have, ExportLens' Python helpers record the schema text beside the program
// (exportlens_capture.save: extra/exportlens_op_schemas.json), and what an
// argument's alias annotation says (`Tensor(a!)`: the op writes it) is what
// the lowering needs to functionalize the call as torch does.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/op_signature.h"

namespace exportlens::ir {

/// One op's schema as recorded beside a program: its text and torch.Tag names.
struct RecordedOpSchema {
  std::string schema;
  std::vector<std::string> tags;
};

struct ParsedOpSchema {
  std::string name;  // the dispatcher name: "mylib::scale_", "mylib::foo.out"
  OpSignature signature;
};

/// The schema in `text`; nullopt when it is not one (unbalanced brackets, no
/// "->", an argument without a name). Types are read for what OpSignature
/// holds: list kinds, return kinds, alias writes, defaults that are plain values.
std::optional<ParsedOpSchema> parse_op_schema(std::string_view text);

}  // namespace exportlens::ir

#pragma once
// What writing a call needs to know of its op's schema, without LibTorch:
// the names of its arguments (torch's .pt2 stores every argument under its
// schema name, and torch.export.load rebuilds args/kwargs from them), which
// are keyword-only, what an empty list argument holds, and the shape of its
// returns. The runtime answers from LibTorch's dispatcher
// (runtime/op_signatures.h); a program read from a .pt2 also remembers what
// its file said about each op (ExportedProgram::file_signatures), for ops
// this process does not have (a custom op registered in Python).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/argument.h"

namespace exportlens::ir {

/// The element kind of a list type, which decides how an empty list is
/// written (as_ints, as_tensors, ...). Unknown: not a list, or not known.
enum class ListKind { Unknown, Int, Float, Bool, String, Tensor };

/// The kind of one return value.
enum class ReturnKind { Tensor, OptionalTensor, TensorList, SymInt, SymFloat, SymBool, Other };

struct OpArgumentSignature {
  std::string name;
  bool kwarg_only = false;
  ListKind list = ListKind::Unknown;
  bool has_default = false;  // files without argument kinds pass such arguments by keyword
  /// The default when it is a plain value (None, a bool, int, float, string or list of
  /// those): a call that leaves the argument out passes it (what a diff compares).
  std::optional<Argument> default_value;
  /// The schema's alias annotation writes it (`Tensor(a!)`): known only from a
  /// full schema (LibTorch's, or one the file recorded: op_schema_text.h).
  bool writes = false;
};

struct OpSignature {
  std::vector<OpArgumentSignature> arguments;
  std::vector<ReturnKind> returns;
  /// false: learnt from a file's nodes, which name only the arguments they
  /// pass (later positions and the returns may be unknown).
  bool complete = true;
  /// torch.Tag names ("inplace", "out", "pt2_compliant_tag"), where known (a recorded schema).
  std::vector<std::string> tags;

  /// Whether an argument's alias annotation writes it (FunctionSchema::is_mutable()).
  bool writes_an_argument() const {
    for (const auto& a : arguments)
      if (a.writes) return true;
    return false;
  }
};

/// Looks an op up by its dispatcher name ("aten::add.Tensor"; "aten::relu"
/// for a default overload): nullopt when the op is unknown.
using OpSignatureLookup = std::function<std::optional<OpSignature>(const std::string& schema_name)>;

/// Signatures by dispatcher name.
using OpSignatureMap = std::map<std::string, OpSignature, std::less<>>;

}  // namespace exportlens::ir

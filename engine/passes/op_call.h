#pragma once
// One call of an op as a decomposition rule sees it: the target and its
// arguments, which refer to nodes of the graph being built. Accessors read
// an argument by position, or by schema name when it was passed as a
// keyword, with the schema's default when it is absent.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/error.h"
#include "engine/ir/node.h"
#include "engine/ir/op_key.h"

namespace exportlens::passes {

/// A rule cannot lower this call (arguments of the wrong kind, a case the
/// rule does not cover). The message names the op and the argument.
class DecompositionError : public Error {
 public:
  explicit DecompositionError(const std::string& message) : Error(ErrorKind::Unsupported, {}, message) {}
};

// Op keys ("aten.linear.default") are ir's (engine/ir/op_key.h); passes' code names them unqualified.
using ir::op_key;
using ir::op_target;

struct OpCall {
  ir::Target target;
  std::vector<ir::Argument> args;
  std::vector<ir::NamedArgument> kwargs;

  std::string key() const { return op_key(target); }
  /// Positional `index`, else the keyword `name`; nullptr when absent.
  const ir::Argument* get(size_t index, std::string_view name) const;
  /// Present and not None.
  bool has(size_t index, std::string_view name) const;

  ir::Node* tensor(size_t index, std::string_view name) const;
  ir::Node* optional_tensor(size_t index, std::string_view name) const;
  std::vector<ir::Node*> tensors(size_t index, std::string_view name) const;
  int64_t integer(size_t index, std::string_view name) const;
  int64_t integer_or(size_t index, std::string_view name, int64_t fallback) const;
  double number_or(size_t index, std::string_view name, double fallback) const;
  std::optional<double> optional_number(size_t index, std::string_view name) const;
  bool boolean_or(size_t index, std::string_view name, bool fallback) const;
  std::string string_or(size_t index, std::string_view name, std::string fallback) const;
  std::vector<int64_t> integers(size_t index, std::string_view name) const;
  std::vector<int64_t> integers_or(size_t index, std::string_view name, std::vector<int64_t> fallback) const;
  std::optional<ir::ScalarType> dtype(size_t index, std::string_view name) const;
  /// The argument as given (a literal, a node or a list), or `fallback`.
  ir::Argument value_or(size_t index, std::string_view name, ir::Argument fallback) const;

  [[noreturn]] void fail(const std::string& what) const;
};

}  // namespace exportlens::passes

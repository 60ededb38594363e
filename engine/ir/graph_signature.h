#pragma once
// Which graph inputs are user inputs, parameters, buffers, constants, and
// which outputs are user outputs or mutations (torch's ExportGraphSignature).
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/argument.h"

namespace exportlens::ir {

enum class InputKind { UserInput, Parameter, Buffer, ConstantTensor, CustomObj, Token };
enum class OutputKind {
  UserOutput,
  LossOutput,
  BufferMutation,
  ParameterMutation,
  GradientToParameter,
  GradientToUserInput,
  UserInputMutation,
  Token,
};
std::string_view kind_name(InputKind k);   // "USER_INPUT", ...
std::string_view kind_name(OutputKind k);  // "USER_OUTPUT", ...

/// What a signature entry names: a graph value by name, or (for a constant
/// user input/output such as an int) the constant itself.
struct SpecArgument {
  enum class Type { Tensor, SymInt, SymFloat, SymBool, Constant, CustomObj, Token };
  Type type = Type::Tensor;
  std::string name;
  Argument constant;  // Type::Constant only
};

struct InputSpec {
  InputKind kind = InputKind::UserInput;
  SpecArgument arg;
  std::optional<std::string> target;  // state-dict key for parameters/buffers/constants
  std::optional<bool> persistent;     // buffers only
};

struct OutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  SpecArgument arg;
  std::optional<std::string> target;  // mutated buffer / input name
};

struct GraphSignature {
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;

  std::vector<const InputSpec*> user_inputs() const;
  std::vector<const OutputSpec*> user_outputs() const;
  const InputSpec* input_named(std::string_view name) const;
};

}  // namespace exportlens::ir

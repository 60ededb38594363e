#include "engine/ir/graph_signature.h"

namespace exportlens::ir {

std::string_view kind_name(InputKind k) {
  switch (k) {
    case InputKind::UserInput: return "USER_INPUT";
    case InputKind::Parameter: return "PARAMETER";
    case InputKind::Buffer: return "BUFFER";
    case InputKind::ConstantTensor: return "CONSTANT_TENSOR";
    case InputKind::CustomObj: return "CUSTOM_OBJ";
    case InputKind::Token: return "TOKEN";
  }
  return "?";
}

std::string_view kind_name(OutputKind k) {
  switch (k) {
    case OutputKind::UserOutput: return "USER_OUTPUT";
    case OutputKind::LossOutput: return "LOSS_OUTPUT";
    case OutputKind::BufferMutation: return "BUFFER_MUTATION";
    case OutputKind::ParameterMutation: return "PARAMETER_MUTATION";
    case OutputKind::GradientToParameter: return "GRADIENT_TO_PARAMETER";
    case OutputKind::GradientToUserInput: return "GRADIENT_TO_USER_INPUT";
    case OutputKind::UserInputMutation: return "USER_INPUT_MUTATION";
    case OutputKind::Token: return "TOKEN";
  }
  return "?";
}

std::vector<const InputSpec*> GraphSignature::user_inputs() const {
  std::vector<const InputSpec*> out;
  for (const auto& s : inputs)
    if (s.kind == InputKind::UserInput) out.push_back(&s);
  return out;
}

std::vector<const OutputSpec*> GraphSignature::user_outputs() const {
  std::vector<const OutputSpec*> out;
  for (const auto& s : outputs)
    if (s.kind == OutputKind::UserOutput) out.push_back(&s);
  return out;
}

const InputSpec* GraphSignature::input_named(std::string_view name) const {
  for (const auto& s : inputs)
    if (s.arg.name == name) return &s;
  return nullptr;
}

}  // namespace exportlens::ir

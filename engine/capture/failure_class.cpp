#include "engine/capture/failure_class.h"

namespace exportlens::capture {

std::string classify_failure(std::string_view type, std::string_view message) {
  const auto has = [&](std::string_view s) { return message.find(s) != std::string_view::npos; };
  const std::string_view short_type = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
  if (short_type == "ConstraintViolationError" || has("Constraints violated") ||
      has("but your code specialized it to be a constant") || has("must always be equal"))
    return "constraint_violation";
  if (short_type == "GuardOnDataDependentSymNode" || short_type == "DataDependentOutputException" ||
      has("data-dependent expression") || has("Could not extract specialized integer from data-dependent"))
    return "data_dependent";
  if (has("fake kernel") || has("fake impl") || has("register_fake") || has("Meta kernel") ||
      short_type == "UnsupportedOperatorException")
    return "missing_fake_kernel";
  if (short_type == "Unsupported" || short_type == "UncapturedHigherOrderOpError" || has("graph break"))
    return "unsupported";
  if (short_type == "UserError" || short_type == "SpecViolationError") return "user_error";
  return "other";
}

std::string failure_class_title(std::string_view failure_class) {
  if (failure_class == "constraint_violation") return "Constraint violation";
  if (failure_class == "data_dependent") return "Data-dependent error";
  if (failure_class == "unsupported") return "Unsupported Python";
  if (failure_class == "missing_fake_kernel") return "Missing fake kernel";
  if (failure_class == "user_error") return "Export error";
  if (failure_class == "spec_error") return "Spec error";
  if (failure_class == "interrupted") return "Interrupted";
  if (failure_class.empty()) return "";
  return "Error";
}

}  // namespace exportlens::capture

#include "engine/base/error.h"

namespace exportlens {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return "usage";
    case ErrorKind::Input: return "input";
    case ErrorKind::Limit: return "limit";
    case ErrorKind::Spec: return "spec";
    case ErrorKind::Constraint: return "constraint";
    case ErrorKind::DataDependent: return "data_dependent";
    case ErrorKind::Check: return "check";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Run: return "run";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::Internal: return "internal";
  }
  return "internal";
}

std::string ErrorPlace::format() const {
  std::string out;
  auto part = [&out](std::string_view sep, const std::string& text) {
    if (text.empty()) return;
    if (!out.empty()) out += sep;
    out += text;
  };
  part(": ", file);
  part(": ", entry);
  part(": ", path);
  if (line > 0) part(", ", "line " + std::to_string(line) + (column > 0 ? ", column " + std::to_string(column) : ""));
  if (!node.empty()) part(": ", "node " + node);
  return out;
}

Error::Error(ErrorKind kind, ErrorPlace place, const std::string& message)
    : std::runtime_error(place.empty() ? message : place.format() + ": " + message),
      kind_(kind),
      place_(std::move(place)),
      message_(message) {}

}  // namespace exportlens

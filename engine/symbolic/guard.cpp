#include "engine/symbolic/guard.h"

namespace exportlens::symbolic {

std::string Provenance::describe() const {
  std::string s;
  switch (kind) {
    case Kind::ShapeRule:
    case Kind::RuntimeAssert: {
      s = "node " + node;
      std::string inner = op;
      if (!rule.empty()) inner += (inner.empty() ? "" : ", ") + rule;
      if (!inner.empty()) s += " (" + inner + ")";
      break;
    }
    case Kind::RecordedGuard:
      s = "recorded guard" + (detail.empty() ? std::string() : " `" + detail + "`") +
          " (user code, or an op guard ExportLens does not model)";
      if (!node.empty()) s += ", traced " + std::string(rule.empty() ? "near" : rule) + " node " + node;
      break;
    case Kind::SpecRelation: s = "the dynamic_shapes spec" + (detail.empty() ? std::string() : ": " + detail); break;
    case Kind::Input: s = "input " + (detail.empty() ? node : detail); break;
  }
  if (!location.empty()) s += " at " + location;
  return s;
}

}  // namespace exportlens::symbolic

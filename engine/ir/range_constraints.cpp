#include "engine/ir/range_constraints.h"

namespace exportlens::ir {

std::string ValueRange::str() const { return "VR[" + lower.str() + ", " + upper.str() + "]"; }

std::string RangeConstraints::str() const {
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    out += entries[i].first.str() + ": " + entries[i].second.str();
  }
  return out + "}";
}

const ValueRange* RangeConstraints::find(const symbolic::Expr& key) const {
  for (const auto& [k, r] : entries)
    if (k == key) return &r;
  return nullptr;
}

}  // namespace exportlens::ir

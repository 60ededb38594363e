#include "engine/ir/range_constraints.h"

namespace exportlens::ir {

std::string ValueRange::str() const { return "VR[" + lower.str() + ", " + upper.str() + "]"; }

namespace {

// torch names a float symbol zf<N> (backed) or zuf<N> (unbacked, `.item()` of a
// float tensor); its range is over the reals, unbounded as sympy's oo, not int_oo.
bool is_float_symbol(const symbolic::Expr& e) {
  if (e.kind() != symbolic::Expr::Kind::Symbol) return false;
  const std::string name = e.str();
  return name.starts_with("zf") || name.starts_with("zuf");
}

std::string float_bound(const symbolic::Expr& b) {
  if (b.kind() != symbolic::Expr::Kind::Infinity) return b.str();
  return b.str().starts_with("-") ? "-oo" : "oo";
}

}  // namespace

std::string RangeConstraints::str() const {
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    const auto& [key, range] = entries[i];
    out += key.str() + ": " +
           (is_float_symbol(key) ? "VR[" + float_bound(range.lower) + ", " + float_bound(range.upper) + "]" : range.str());
  }
  return out + "}";
}

const ValueRange* RangeConstraints::find(const symbolic::Expr& key) const {
  for (const auto& [k, r] : entries)
    if (k == key) return &r;
  return nullptr;
}

}  // namespace exportlens::ir

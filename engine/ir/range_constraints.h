#pragma once
// Valid ranges of the program's symbols ("Range constraints: {s0: VR[2, int_oo]}").
#include <string>
#include <utility>
#include <vector>

#include "engine/symbolic/expr.h"

namespace exportlens::ir {

struct ValueRange {
  symbolic::Expr lower;  // Integer or -int_oo
  symbolic::Expr upper;  // Integer or int_oo
  /// "VR[2, int_oo]"
  std::string str() const;
};

struct RangeConstraints {
  /// In the program's order; keys are symbols or expressions over them.
  std::vector<std::pair<symbolic::Expr, ValueRange>> entries;
  /// "{s15: VR[2, int_oo], s77: VR[2, int_oo]}"
  std::string str() const;
  const ValueRange* find(const symbolic::Expr& key) const;
};

}  // namespace exportlens::ir

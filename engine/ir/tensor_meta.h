#pragma once
// Static facts about a tensor value: dtype, symbolic shape and strides,
// device. Shapes are symbolic expressions (integers are constant expressions).
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/dtype.h"
#include "engine/symbolic/expr.h"

namespace exportlens::ir {

using symbolic::Expr;

/// An integer that may be symbolic, with the example value it had when traced.
struct SymInt {
  Expr expr;
  std::optional<int64_t> hint;  // absent for unbacked symbols
  SymInt() = default;
  SymInt(Expr e, std::optional<int64_t> h = std::nullopt) : expr(std::move(e)), hint(h) {}  // NOLINT
  SymInt(int64_t v) : expr(v), hint(v) {}  // NOLINT
  bool is_static() const { return expr.is_integer(); }
  /// Its value for the example inputs: the integer itself, else the hint
  /// (none for an unbacked symbol). Callers choose what none means.
  std::optional<int64_t> example() const {
    if (auto v = expr.as_integer()) return v;
    return hint;
  }
  std::string str() const { return expr.str(); }
  friend bool operator==(const SymInt& a, const SymInt& b) { return a.expr == b.expr; }
};

struct TensorMeta {
  ScalarType dtype = ScalarType::Float;
  std::vector<SymInt> sizes;
  std::vector<SymInt> strides;
  SymInt storage_offset = 0;
  Device device;
  Layout layout = Layout::Strided;
  bool requires_grad = false;

  size_t rank() const { return sizes.size(); }
  /// "f32[s0, 5]": the annotation print(ep) shows.
  std::string annotation() const;
  /// Number of elements, if every size is static.
  std::optional<int64_t> static_numel() const;
};

}  // namespace exportlens::ir

#pragma once
// What shape propagation knows about a node's value: a tensor's symbolic
// sizes and dtype, a symbolic int or bool, a float, None, or a list of those.
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/dtype.h"
#include "engine/symbolic/expr.h"

namespace exportlens::ops {

using symbolic::Expr;

/// A shared 0: Expr's default constructor builds a fresh node, too costly for
/// values made per node in large graphs.
inline const Expr& shared_zero() {
  static const Expr zero(0);
  return zero;
}

struct SymTensor {
  std::vector<Expr> sizes;
  ir::ScalarType dtype = ir::ScalarType::Float;
  ir::Device device;
  size_t rank() const { return sizes.size(); }
};

struct SymValue {
  enum class Kind { None, Tensor, Int, Bool, Float, List };
  Kind kind = Kind::None;
  SymTensor tensor;            // Tensor
  Expr scalar = shared_zero();  // Int: the integer expression; Bool: the boolean expression
  double number = 0;           // Float
  std::vector<SymValue> items; // List

  static SymValue none() { return {}; }
  static SymValue of(SymTensor t) { return {.kind = Kind::Tensor, .tensor = std::move(t)}; }
  static SymValue of_int(Expr e) { return {.kind = Kind::Int, .scalar = std::move(e)}; }
  static SymValue of_bool(Expr e) { return {.kind = Kind::Bool, .scalar = std::move(e)}; }
  static SymValue of_float(double d) { return {.kind = Kind::Float, .number = d}; }
  static SymValue list(std::vector<SymValue> items) { return {.kind = Kind::List, .items = std::move(items)}; }
  bool is_tensor() const { return kind == Kind::Tensor; }
  /// "f32[s0, 5]", "Sym(s0 + 1)", "(f32[s0], f32[s1])"
  std::string str() const;
};

}  // namespace exportlens::ops

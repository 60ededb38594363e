#pragma once
// What a node produces, as far as static analysis knows it (FX's meta["val"]):
// a tensor's metadata, a symbolic int/bool/float, or a tuple of those.
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "engine/ir/tensor_meta.h"

namespace exportlens::ir {

struct ValueInfo;
using ValueTuple = std::vector<ValueInfo>;

struct SymBool {
  Expr expr;
  std::optional<bool> hint;
  /// A relation over floats (`zuf0 > 0.0`, from `.item()` of a float tensor),
  /// which Expr does not model: sympy's str of it and the srepr the file
  /// spelled, kept as text (expr is then True).
  std::string float_text, float_srepr;
  /// What torch prints inside Sym(...).
  std::string str() const { return float_text.empty() ? expr.str() : float_text; }
};
struct SymFloat {
  std::string expr;   // sympy's str, kept as text: float symbols are rare in exported graphs
  std::optional<double> hint;
  std::string srepr;  // as the file spelled it (empty for values ExportLens made)
};

struct ValueInfo {
  std::variant<std::monostate, TensorMeta, SymInt, SymBool, SymFloat, std::shared_ptr<ValueTuple>> v;

  bool known() const { return !std::holds_alternative<std::monostate>(v); }
  const TensorMeta* tensor() const { return std::get_if<TensorMeta>(&v); }
  const SymInt* sym_int() const { return std::get_if<SymInt>(&v); }
  const SymBool* sym_bool() const { return std::get_if<SymBool>(&v); }
  const ValueTuple* tuple() const {
    auto* p = std::get_if<std::shared_ptr<ValueTuple>>(&v);
    return p ? p->get() : nullptr;
  }
  static ValueInfo of(TensorMeta m) { return ValueInfo{std::move(m)}; }
  static ValueInfo of(SymInt s) { return ValueInfo{std::move(s)}; }
  static ValueInfo of_tuple(ValueTuple items) {
    return ValueInfo{std::make_shared<ValueTuple>(std::move(items))};
  }
};

}  // namespace exportlens::ir

#pragma once
// Symbolic ints and bools handed to model code (sym_size(), item(), their
// arithmetic and comparisons): c10::SymNodeImpl over an ExportLens
// expression. Arithmetic builds expressions; turning one into a C++ bool or
// int guards through the ShapeEnv at the model's source line, exactly where
// torch.export's guards come from.
#include <c10/core/SymNodeImpl.h>

#include "engine/symbolic/expr.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

class TraceSymNode final : public c10::SymNodeImpl {
 public:
  enum class Kind { Int, Bool };
  TraceSymNode(uint64_t trace_id, Kind kind, symbolic::Expr expr, SymRecipe recipe);

  const symbolic::Expr& expr() const { return expr_; }
  const SymRecipe& recipe() const { return recipe_; }
  uint64_t trace_id() const { return trace_id_; }
  /// The graph node computing this value, once materialized.
  ir::Node* proxy = nullptr;
  /// true: a bool read straight from a tensor (bool(x.sum() > 0) in Python).
  bool from_tensor_bool = false;

  static TraceSymNode* of(const c10::SymNode& n) { return dynamic_cast<TraceSymNode*>(n.get()); }

  bool is_int() override { return kind_ == Kind::Int; }
  bool is_bool() override { return kind_ == Kind::Bool; }
  bool is_float() override { return false; }

  c10::SymNode add(const c10::SymNode& other) override;
  c10::SymNode sub(const c10::SymNode& other) override;
  c10::SymNode mul(const c10::SymNode& other) override;
  c10::SymNode floordiv(const c10::SymNode& other) override;
  c10::SymNode mod(const c10::SymNode& other) override;
  c10::SymNode truediv(const c10::SymNode& other) override;
  c10::SymNode pow(const c10::SymNode& other) override;
  c10::SymNode eq(const c10::SymNode& other) override;
  c10::SymNode ne(const c10::SymNode& other) override;
  c10::SymNode gt(const c10::SymNode& other) override;
  c10::SymNode lt(const c10::SymNode& other) override;
  c10::SymNode le(const c10::SymNode& other) override;
  c10::SymNode ge(const c10::SymNode& other) override;
  c10::SymNode sym_min(const c10::SymNode& other) override;
  c10::SymNode sym_max(const c10::SymNode& other) override;
  c10::SymNode sym_and(const c10::SymNode& other) override;
  c10::SymNode sym_or(const c10::SymNode& other) override;
  c10::SymNode sym_not() override;
  c10::SymNode neg() override;
  c10::SymNode clone() override;
  c10::SymNode sym_float() override;
  c10::SymNode wrap_int(int64_t num) override;
  c10::SymNode wrap_bool(bool num) override;
  c10::SymNode wrap_float(double num) override;

  int64_t guard_int(const char* file, int64_t line) override;
  bool guard_bool(const char* file, int64_t line) override;
  double guard_float(const char* file, int64_t line) override;
  bool guard_size_oblivious(const char* file, int64_t line) override;
  bool guard_or_false(const char* file, int64_t line) override;
  bool guard_or_true(const char* file, int64_t line) override;
  bool statically_known_true(const char* file, int64_t line) override;
  bool expect_true(const char* file, int64_t line) override;
  int64_t int_() override;
  bool bool_() override;
  bool has_hint() override;
  std::string str() override;
  std::optional<int64_t> constant_int() override;
  std::optional<bool> constant_bool() override;
  std::optional<int64_t> maybe_as_int() override;
  bool is_constant() override;
  bool is_symbolic() override;

 private:
  Tracer& tracer() const;
  c10::SymNode binary(const c10::SymNode& other, const char* op, Kind result, symbolic::Expr e);
  symbolic::Expr other_expr(const c10::SymNode& other) const;
  bool decide(std::optional<bool> fallback);

  uint64_t trace_id_;
  Kind kind_;
  symbolic::Expr expr_;
  SymRecipe recipe_;
};

}  // namespace exportlens::trace

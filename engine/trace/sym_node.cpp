#include "engine/trace/sym_node.h"

#include "engine/trace/trace_errors.h"

namespace exportlens::trace {

using symbolic::Expr;

TraceSymNode::TraceSymNode(uint64_t trace_id, Kind kind, Expr expr, SymRecipe recipe)
    : trace_id_(trace_id), kind_(kind), expr_(std::move(expr)), recipe_(std::move(recipe)) {}

Tracer& TraceSymNode::tracer() const {
  Tracer* t = Tracer::current();
  if (!t || t->id() != trace_id_)
    throw TraceError("internal", "RuntimeError",
                     "a symbolic value (" + expr_.str() + ") from an ExportLens trace was used outside that trace");
  return *t;
}

Expr TraceSymNode::other_expr(const c10::SymNode& other) const {
  if (auto* o = of(other)) return o->expr();
  if (auto v = other->constant_int()) return Expr(*v);
  if (auto b = other->constant_bool()) return Expr::boolean(*b);
  throw TraceError("internal", "RuntimeError", "a symbolic value from outside ExportLens met a traced one");
}

c10::SymNode TraceSymNode::binary(const c10::SymNode& other, const char* op, Kind result, Expr e) {
  SymRecipe r;
  r.kind = SymRecipe::Kind::Operator;
  r.op = op;
  r.operands = {c10::SymNode::reclaim_copy(this), other};
  return c10::make_intrusive<TraceSymNode>(trace_id_, result, std::move(e), std::move(r));
}

c10::SymNode TraceSymNode::add(const c10::SymNode& o) { return binary(o, "add", Kind::Int, expr_ + other_expr(o)); }
c10::SymNode TraceSymNode::sub(const c10::SymNode& o) { return binary(o, "sub", Kind::Int, expr_ - other_expr(o)); }
c10::SymNode TraceSymNode::mul(const c10::SymNode& o) { return binary(o, "mul", Kind::Int, expr_ * other_expr(o)); }
c10::SymNode TraceSymNode::floordiv(const c10::SymNode& o) {
  return binary(o, "floordiv", Kind::Int, Expr::floordiv(expr_, other_expr(o)));
}
c10::SymNode TraceSymNode::mod(const c10::SymNode& o) { return binary(o, "mod", Kind::Int, Expr::mod(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::eq(const c10::SymNode& o) { return binary(o, "eq", Kind::Bool, Expr::eq(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::ne(const c10::SymNode& o) { return binary(o, "ne", Kind::Bool, Expr::ne(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::gt(const c10::SymNode& o) { return binary(o, "gt", Kind::Bool, Expr::gt(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::lt(const c10::SymNode& o) { return binary(o, "lt", Kind::Bool, Expr::lt(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::le(const c10::SymNode& o) { return binary(o, "le", Kind::Bool, Expr::le(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::ge(const c10::SymNode& o) { return binary(o, "ge", Kind::Bool, Expr::ge(expr_, other_expr(o))); }
c10::SymNode TraceSymNode::sym_min(const c10::SymNode& o) {
  return binary(o, "sym_min", Kind::Int, Expr::min(expr_, other_expr(o)));
}
c10::SymNode TraceSymNode::sym_max(const c10::SymNode& o) {
  return binary(o, "sym_max", Kind::Int, Expr::max(expr_, other_expr(o)));
}
c10::SymNode TraceSymNode::sym_and(const c10::SymNode& o) {
  return binary(o, "and_", Kind::Bool, Expr::logical_and({expr_, other_expr(o)}));
}
c10::SymNode TraceSymNode::sym_or(const c10::SymNode& o) {
  return binary(o, "or_", Kind::Bool, Expr::logical_or({expr_, other_expr(o)}));
}

c10::SymNode TraceSymNode::sym_not() {
  SymRecipe r;
  r.kind = SymRecipe::Kind::Operator;
  r.op = "not_";
  r.operands = {c10::SymNode::reclaim_copy(this)};
  return c10::make_intrusive<TraceSymNode>(trace_id_, Kind::Bool, Expr::logical_not(expr_), std::move(r));
}

c10::SymNode TraceSymNode::neg() {
  SymRecipe r;
  r.kind = SymRecipe::Kind::Operator;
  r.op = "neg";
  r.operands = {c10::SymNode::reclaim_copy(this)};
  return c10::make_intrusive<TraceSymNode>(trace_id_, Kind::Int, -expr_, std::move(r));
}

c10::SymNode TraceSymNode::truediv(const c10::SymNode&) {
  throw TraceError("unsupported", "RuntimeError",
                   "true division of symbolic ints makes a symbolic float; the C++ tracer supports integer "
                   "symbols only (use floor division)");
}
c10::SymNode TraceSymNode::pow(const c10::SymNode&) {
  throw TraceError("unsupported", "RuntimeError", "powers of symbolic ints are not supported by the C++ tracer");
}
c10::SymNode TraceSymNode::sym_float() {
  throw TraceError("unsupported", "RuntimeError",
                   "a symbolic int (" + expr_.str() + ") converted to float: symbolic floats are not supported");
}
c10::SymNode TraceSymNode::wrap_float(double) {
  throw TraceError("unsupported", "RuntimeError", "symbolic floats are not supported by the C++ tracer");
}
double TraceSymNode::guard_float(const char*, int64_t) {
  throw TraceError("unsupported", "RuntimeError", "symbolic floats are not supported by the C++ tracer");
}

c10::SymNode TraceSymNode::clone() { return c10::SymNode::reclaim_copy(this); }

c10::SymNode TraceSymNode::wrap_int(int64_t num) {
  return c10::make_intrusive<TraceSymNode>(trace_id_, Kind::Int, Expr(num), SymRecipe{});
}
c10::SymNode TraceSymNode::wrap_bool(bool num) {
  return c10::make_intrusive<TraceSymNode>(trace_id_, Kind::Bool, Expr::boolean(num), SymRecipe{});
}

bool TraceSymNode::decide(std::optional<bool> fallback) {
  Tracer& t = tracer();
  if (auto known = t.env().static_truth(expr_)) return *known;
  const auto loc = t.model_location();
  const auto origin = t.user_origin("condition in model code", loc);
  try {
    if (fallback) return *fallback ? t.env().guard_or_true(expr_, origin) : t.env().guard_or_false(expr_, origin);
    return t.env().evaluate(expr_, origin);
  } catch (const symbolic::DataDependentError& e) {
    raise_data_dependent(t, e, loc, from_tensor_bool);
  }
}

bool TraceSymNode::guard_bool(const char*, int64_t) { return decide(std::nullopt); }
bool TraceSymNode::guard_or_false(const char*, int64_t) { return decide(false); }
bool TraceSymNode::guard_or_true(const char*, int64_t) { return decide(true); }

bool TraceSymNode::guard_size_oblivious(const char*, int64_t) {
  // Size-oblivious: an unbacked size is taken to be >= 2, so a condition that
  // needs it is not guarded (torch's guard_size_oblivious).
  return tracer().env().has_unbacked(expr_) ? decide(false) : decide(std::nullopt);
}

bool TraceSymNode::statically_known_true(const char*, int64_t) {
  return tracer().env().static_truth(expr_).value_or(false);
}

bool TraceSymNode::expect_true(const char*, int64_t) {
  Tracer& t = tracer();
  if (auto known = t.env().static_truth(expr_)) {
    if (*known) return true;
  }
  const auto loc = t.model_location();
  try {
    t.env().check(expr_, t.user_origin("check in LibTorch code", loc));
  } catch (const symbolic::CheckFailedError& e) {
    raise_check_failed(t, e, loc);
  }
  return true;
}

int64_t TraceSymNode::guard_int(const char*, int64_t) { return tracer().specialize(expr_); }

int64_t TraceSymNode::int_() {
  if (auto v = tracer().env().hint(expr_)) return *v;
  throw TraceError("data_dependent", "RuntimeError", "no example value for " + expr_.str());
}
bool TraceSymNode::bool_() { return int_() != 0; }
bool TraceSymNode::has_hint() { return tracer().env().hint(expr_).has_value(); }
std::string TraceSymNode::str() { return expr_.str(); }

std::optional<int64_t> TraceSymNode::constant_int() {
  if (kind_ != Kind::Int) return std::nullopt;
  return expr_.as_integer();
}
std::optional<bool> TraceSymNode::constant_bool() {
  if (kind_ != Kind::Bool) return std::nullopt;
  if (expr_.kind() == Expr::Kind::True) return true;
  if (expr_.kind() == Expr::Kind::False) return false;
  return std::nullopt;
}
std::optional<int64_t> TraceSymNode::maybe_as_int() {
  if (kind_ != Kind::Int) return std::nullopt;
  if (auto v = expr_.as_integer()) return v;
  if (Tracer* t = Tracer::current(); t && t->id() == trace_id_) return t->env().replace(expr_).as_integer();
  return std::nullopt;
}
bool TraceSymNode::is_constant() { return constant_int().has_value() || constant_bool().has_value(); }
bool TraceSymNode::is_symbolic() { return !is_constant(); }

}  // namespace exportlens::trace

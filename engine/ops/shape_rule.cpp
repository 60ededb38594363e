#include "engine/ops/shape_rule.h"

#include "engine/ir/argument_lookup.h"
#include "engine/ir/op_key.h"
#include "engine/ops/rule_helpers.h"
#include "engine/symbolic/solve_memo.h"

#include <algorithm>

namespace exportlens::ops {

namespace {

std::string describe_node(const ir::Node& n) { return "node " + n.name + " (" + n.target.qualified() + ")"; }

const RuleTable& table() {
  static const RuleTable t = [] {
    RuleTable r;
    add_pointwise_rules(r);
    add_linalg_rules(r);
    add_view_rules(r);
    add_index_rules(r);
    add_concat_rules(r);
    add_conv_pool_rules(r);
    add_reduction_rules(r);
    add_norm_rules(r);
    add_recurrent_rules(r);
    add_creation_rules(r);
    add_symint_rules(r);
    return r;
  }();
  return t;
}

}  // namespace

const ir::Argument* RuleContext::arg(size_t index, std::string_view name) const {
  return ir::find_argument(node.args(), node.kwargs(), index, name);
}

bool RuleContext::has(size_t index, std::string_view name) const {
  const ir::Argument* a = arg(index, name);
  return a && !a->is_none();
}

SymValue RuleContext::convert(const ir::Argument& a) const {
  if (const ir::Node* n = a.node()) return value_of_(n);
  if (a.is_none()) return SymValue::none();
  if (auto* b = std::get_if<bool>(&a.v)) return SymValue::of_bool(Expr::boolean(*b));
  if (auto* i = std::get_if<int64_t>(&a.v)) return SymValue::of_int(Expr(*i));
  if (auto* d = std::get_if<double>(&a.v)) return SymValue::of_float(*d);
  if (const ir::ArgumentList* l = a.list()) {
    std::vector<SymValue> items;
    for (const auto& x : l->items) items.push_back(convert(x));
    return SymValue::list(std::move(items));
  }
  return SymValue::none();  // strings, dtypes, devices: not shape values
}

SymValue RuleContext::value(size_t index, std::string_view name) const {
  const ir::Argument* a = arg(index, name);
  return a ? convert(*a) : SymValue::none();
}

SymTensor RuleContext::tensor(size_t index, std::string_view name) const {
  SymValue v = value(index, name);
  if (!v.is_tensor())
    throw RuleError(describe_node(node) + ": argument " + (name.empty() ? std::to_string(index) : std::string(name)) +
                    " is not a tensor");
  return std::move(v.tensor);
}

std::optional<SymTensor> RuleContext::optional_tensor(size_t index, std::string_view name) const {
  SymValue v = value(index, name);
  if (!v.is_tensor()) return std::nullopt;
  return std::move(v.tensor);
}

std::vector<SymTensor> RuleContext::tensors(size_t index, std::string_view name) const {
  SymValue v = value(index, name);
  std::vector<SymTensor> out;
  if (v.kind != SymValue::Kind::List) throw RuleError(describe_node(node) + ": expected a list of tensors");
  for (auto& item : v.items) {
    if (!item.is_tensor()) throw RuleError(describe_node(node) + ": expected a list of tensors");
    out.push_back(std::move(item.tensor));
  }
  return out;
}

Expr RuleContext::integer(size_t index, std::string_view name) const {
  SymValue v = value(index, name);
  if (v.kind == SymValue::Kind::Int) return v.scalar;
  if (v.kind == SymValue::Kind::Bool) return Expr(v.scalar.kind() == Expr::Kind::True ? 1 : 0);
  throw RuleError(describe_node(node) + ": argument " + (name.empty() ? std::to_string(index) : std::string(name)) +
                  " is not an integer");
}

Expr RuleContext::integer_or(size_t index, std::string_view name, int64_t fallback) const {
  return has(index, name) ? integer(index, name) : Expr(fallback);
}

std::optional<Expr> RuleContext::optional_integer(size_t index, std::string_view name) const {
  if (!has(index, name)) return std::nullopt;
  return integer(index, name);
}

std::vector<Expr> RuleContext::integers(size_t index, std::string_view name) const {
  SymValue v = value(index, name);
  if (v.kind == SymValue::Kind::Int) return {v.scalar};
  if (v.kind != SymValue::Kind::List) throw RuleError(describe_node(node) + ": expected a list of ints");
  std::vector<Expr> out;
  for (const auto& item : v.items) {
    if (item.kind != SymValue::Kind::Int) throw RuleError(describe_node(node) + ": expected a list of ints");
    out.push_back(item.scalar);
  }
  return out;
}

std::optional<std::vector<Expr>> RuleContext::optional_integers(size_t index, std::string_view name) const {
  if (!has(index, name)) return std::nullopt;
  return integers(index, name);
}

bool RuleContext::boolean_or(size_t index, std::string_view name, bool fallback) const {
  const ir::Argument* a = arg(index, name);
  if (!a) return fallback;
  if (auto* b = std::get_if<bool>(&a->v)) return *b;
  return fallback;
}

std::optional<ir::ScalarType> RuleContext::dtype(size_t index, std::string_view name) const {
  const ir::Argument* a = arg(index, name);
  if (!a) return std::nullopt;
  if (auto* t = std::get_if<ir::ScalarType>(&a->v)) return *t;
  return std::nullopt;
}

int64_t RuleContext::static_integer(size_t index, std::string_view name) const {
  const Expr e = simplify(integer(index, name));
  if (auto v = e.as_integer()) return *v;
  throw RuleError(describe_node(node) + ": argument " + (name.empty() ? std::to_string(index) : std::string(name)) +
                  " must be a constant, got " + e.str());
}

int64_t RuleContext::static_integer_or(size_t index, std::string_view name, int64_t fallback) const {
  return has(index, name) ? static_integer(index, name) : fallback;
}

std::vector<int64_t> RuleContext::static_integers(size_t index, std::string_view name) const {
  std::vector<int64_t> out;
  for (const Expr& e : integers(index, name)) {
    const Expr s = simplify(e);
    if (!s.is_integer()) throw RuleError(describe_node(node) + ": expected constant ints, got " + s.str());
    out.push_back(*s.as_integer());
  }
  return out;
}

symbolic::Provenance RuleContext::origin(std::string rule) const {
  symbolic::Provenance p;
  p.kind = symbolic::Provenance::Kind::ShapeRule;
  p.node = node.name;
  p.op = ir::op_key(node.target);
  p.rule = std::move(rule);
  if (location_) p.location = location_(node);
  if (auto f = node.meta.innermost_frame()) p.code = f->code;
  return p;
}

bool RuleContext::eval(const Expr& condition, const char* rule) { return env.evaluate(condition, origin(rule)); }
bool RuleContext::guard_or_false(const Expr& condition, const char* rule) {
  return env.guard_or_false(condition, origin(rule));
}
bool RuleContext::guard_or_true(const Expr& condition, const char* rule) {
  return env.guard_or_true(condition, origin(rule));
}
void RuleContext::check(const Expr& condition, const char* rule, const symbolic::CheckMessage& message) {
  env.check(condition, origin(rule), message);
}

void RuleContext::check_equal(const Expr& a, const Expr& b, const char* rule,
                              const symbolic::CheckMessage& message) {
  if (a == b) return;
  const Expr sa = simplify(a), sb = simplify(b);
  if (sa == sb) return;
  check(symbolic::built(env.memo(), Expr::Kind::Eq, sa, sb), rule, message);
}

Expr RuleContext::floordiv(const Expr& a, const Expr& b) const {
  return symbolic::built(env.memo(), Expr::Kind::FloorDiv, a, b);
}

Expr RuleContext::mod(const Expr& a, const Expr& b) const {
  return symbolic::built(env.memo(), Expr::Kind::Mod, a, b);
}

Expr RuleContext::relation(Expr::Kind kind, const Expr& a, const Expr& b) const {
  return symbolic::built(env.memo(), kind, a, b);
}

Expr RuleContext::product(const std::vector<Expr>& sizes, size_t begin, size_t end) const {
  return ops::product(sizes, begin, end, env.memo());
}

bool RuleContext::known_one(const Expr& e, const char* rule) {
  if (auto v = e.as_integer()) return *v == 1;
  const symbolic::ValueRange r = env.bound(simplify(e));
  if (!r.contains(1)) return false;
  return guard_or_false(Expr::eq(e, Expr(1)), rule);
}

int64_t RuleContext::wrap_dim(int64_t dim, size_t rank) const {
  const int64_t r = std::max<int64_t>(int64_t(rank), 1);
  if (dim < -r || dim >= r)
    throw RuleError(describe_node(node) + ": dimension " + std::to_string(dim) + " out of range for rank " +
                    std::to_string(rank));
  return dim < 0 ? dim + r : dim;
}

const ShapeRule* find_shape_rule(const ir::Target& target) {
  // Keyed by the target's full text: a graph has few distinct targets.
  thread_local std::unordered_map<std::string, const ShapeRule*> resolved;
  if (auto it = resolved.find(target.qualified()); it != resolved.end()) return it->second;
  const RuleTable& t = table();
  const ShapeRule* found = nullptr;
  if (target.is_torch_op()) {
    if (auto it = t.find(ir::op_key(target)); it != t.end()) found = &it->second;
    else if (auto it2 = t.find(ir::op_packet_key(target)); it2 != t.end()) found = &it2->second;
  } else {
    std::string q = target.qualified();
    if (q.rfind("operator.", 0) == 0) q = "_" + q;
    if (auto it = t.find(q); it != t.end()) found = &it->second;
  }
  resolved.emplace(target.qualified(), found);
  return found;
}

void set_aten_rule(RuleTable& t, std::initializer_list<const char*> ops, const ShapeRule& rule) {
  for (const char* op : ops) t[std::string("aten.") + op] = rule;
}

std::vector<std::string> shape_rule_keys() {
  std::vector<std::string> keys;
  for (const auto& [k, v] : table()) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace exportlens::ops

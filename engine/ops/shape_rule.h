#pragma once
// Symbolic shape rules: for one call_function node, compute the output's
// symbolic shape from the inputs' and emit the guards torch's meta kernel
// emits, through the ShapeEnv, with the node as provenance.
//
// Rules are registered by op key (engine/ir/op_key.h: "aten.add" for every
// overload, or "aten.add.Tensor" for one) and looked up by a node's target.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/base/error.h"
#include "engine/ir/node.h"
#include "engine/ops/sym_value.h"
#include "engine/symbolic/shape_env.h"

namespace exportlens::ops {

/// The node's arguments do not fit the rule (wrong kind or count).
class RuleError : public Error {
 public:
  explicit RuleError(const std::string& message) : Error(ErrorKind::Unsupported, {}, message) {}
};

using ValueOf = std::function<const SymValue&(const ir::Node*)>;

class RuleContext {
 public:
  /// `location` renders the node's user source line; called only when a guard needs it.
  RuleContext(symbolic::ShapeEnv& env, const ir::Node& node, const ValueOf& value_of,
              std::function<std::string(const ir::Node&)> location)
      : env(env), node(node), value_of_(value_of), location_(std::move(location)) {}

  symbolic::ShapeEnv& env;
  const ir::Node& node;

  // ---- arguments: positional, or by schema name when passed as a keyword
  const ir::Argument* arg(size_t index, std::string_view name = {}) const;
  bool has(size_t index, std::string_view name = {}) const;
  SymValue value(size_t index, std::string_view name = {}) const;
  SymTensor tensor(size_t index, std::string_view name = {}) const;
  std::optional<SymTensor> optional_tensor(size_t index, std::string_view name = {}) const;
  std::vector<SymTensor> tensors(size_t index, std::string_view name = {}) const;
  Expr integer(size_t index, std::string_view name = {}) const;
  Expr integer_or(size_t index, std::string_view name, int64_t fallback) const;
  std::optional<Expr> optional_integer(size_t index, std::string_view name = {}) const;
  std::vector<Expr> integers(size_t index, std::string_view name = {}) const;
  std::optional<std::vector<Expr>> optional_integers(size_t index, std::string_view name = {}) const;
  bool boolean_or(size_t index, std::string_view name, bool fallback) const;
  std::optional<ir::ScalarType> dtype(size_t index, std::string_view name = {}) const;
  /// A literal int (dims, flags): throws RuleError when it is symbolic.
  int64_t static_integer(size_t index, std::string_view name = {}) const;
  int64_t static_integer_or(size_t index, std::string_view name, int64_t fallback) const;
  std::vector<int64_t> static_integers(size_t index, std::string_view name = {}) const;

  // ---- guards, attributed to this node
  symbolic::Provenance origin(std::string rule) const;
  bool eval(const Expr& condition, const char* rule);
  bool guard_or_false(const Expr& condition, const char* rule);
  bool guard_or_true(const Expr& condition, const char* rule);
  void check(const Expr& condition, const char* rule, const symbolic::CheckMessage& message = {});
  Expr simplify(const Expr& e) const { return env.replace(e); }
  /// a // b and torch's a % b, kept by the program's solve memo when there is
  /// one: a re-solve divides the same (kilobyte-long) sizes again.
  Expr floordiv(const Expr& a, const Expr& b) const;
  Expr mod(const Expr& a, const Expr& b) const;
  /// a `kind` b for a relation (Eq ... Ge), kept the same way.
  Expr relation(Expr::Kind kind, const Expr& a, const Expr& b) const;
  /// The product of sizes[begin, end) (1 for none), kept the same way.
  Expr product(const std::vector<Expr>& sizes, size_t begin = 0, size_t end = SIZE_MAX) const;
  /// torch._check(a == b) with the cheap cases (same expression, two constants) decided
  /// without building the relation.
  void check_equal(const Expr& a, const Expr& b, const char* rule, const symbolic::CheckMessage& message = {});
  /// guard_or_false(e == 1): false without a guard when the range excludes 1.
  bool known_one(const Expr& e, const char* rule);
  /// Python-style dim wrapping against a rank (checks the range).
  int64_t wrap_dim(int64_t dim, size_t rank) const;

 private:
  SymValue convert(const ir::Argument& a) const;
  const ValueOf& value_of_;
  std::function<std::string(const ir::Node&)> location_;
};

using ShapeRule = std::function<SymValue(RuleContext&)>;

/// The rule for a node's target, or nullptr.
const ShapeRule* find_shape_rule(const ir::Target& target);
/// Every registered key ("aten.add", "aten.add.Tensor", "_operator.getitem").
std::vector<std::string> shape_rule_keys();

/// Registration, called once per rule family (rules_*.cpp).
using RuleTable = std::unordered_map<std::string, ShapeRule>;
/// `rule` for every overload of each aten op in `ops` ("slice", "slice_copy").
void set_aten_rule(RuleTable& t, std::initializer_list<const char*> ops, const ShapeRule& rule);
void add_pointwise_rules(RuleTable& t);
void add_linalg_rules(RuleTable& t);
void add_view_rules(RuleTable& t);
void add_index_rules(RuleTable& t);
void add_concat_rules(RuleTable& t);
void add_conv_pool_rules(RuleTable& t);
void add_reduction_rules(RuleTable& t);
void add_norm_rules(RuleTable& t);
void add_recurrent_rules(RuleTable& t);  // lstm, gru, rnn_tanh, rnn_relu (.input)
void add_creation_rules(RuleTable& t);
void add_symint_rules(RuleTable& t);

}  // namespace exportlens::ops

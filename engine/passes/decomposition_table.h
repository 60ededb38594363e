#pragma once
// Decomposition tables: which ops lower, and to what.
//
// A rule is a C++ function that, given one call of its op, emits the ops it
// stands for through a Rewriter (whose calls may decompose further, as a
// dispatcher call inside a torch decomposition does). A table maps op keys
// ("aten.conv2d.default") to rules. Built-in tables:
//
//   "core"           torch.export.default_decompositions(): lower to the Core
//                    ATen operator set (the default)
//   "functional"     the empty table: functionalization only
//   "double_conv2d"  the seed's custom table: the core table with conv2d
//                    lowered to 2 * convolution
//
// More tables: register_decomposition_table(), or EXPORTLENS_DECOMPOSITIONS in
// a model library (engine/trace/traced_rule.h; the GUI offers all). Whatever the
// table, the lowering also applies functionalization_rules(): composite ops
// that may alias or mutate (batch_norm, dropout, reshape, flatten, ...),
// which torch decomposes even for an empty table.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/argument.h"
#include "engine/passes/op_call.h"

namespace exportlens::passes {

class Rewriter;

/// Emits the lowering of `call` and returns what stands for its result: a
/// node, or a tuple (ArgumentList) of nodes for multi-output ops.
using DecompositionFn = std::function<ir::Argument(Rewriter& b, const OpCall& call)>;

struct DecompositionRule {
  std::string op;         // "aten.linear.default"
  std::string family;     // "linear", "conv", "norm", ... (the file it lives in)
  std::string reference;  // torch's version it follows
  DecompositionFn fn;
};

class DecompositionTable {
 public:
  DecompositionTable() = default;
  DecompositionTable(std::string name, std::string description)
      : name_(std::move(name)), description_(std::move(description)) {}

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  void set_name(std::string name) { name_ = std::move(name); }
  void set_description(std::string d) { description_ = std::move(d); }

  /// Adds the rule, or replaces the op's rule.
  void set(DecompositionRule rule);
  /// Keeps the op as it is (no rule).
  void remove(std::string_view op);
  const DecompositionRule* find(std::string_view op) const;
  bool empty() const { return rules_.empty(); }
  size_t size() const { return rules_.size(); }
  /// Op keys, sorted.
  std::vector<std::string> ops() const;
  std::vector<const DecompositionRule*> rules() const;

 private:
  std::string name_;
  std::string description_;
  std::map<std::string, DecompositionRule, std::less<>> rules_;
};

/// Decomposed at every level, even by the empty table (see above).
const DecompositionTable& functionalization_rules();
/// torch.export.default_decompositions(): every rule the engine provides.
DecompositionTable default_decompositions();

// ---- rule families (decomp_*.cpp) --------------------------------------------
void add_view_decompositions(DecompositionTable& t);        // aliasing composites, views to core views
void add_functional_view_decompositions(DecompositionTable& t);
void add_linear_decompositions(DecompositionTable& t);      // linear, matmul, mv, dot, baddbmm
void add_conv_decompositions(DecompositionTable& t);        // conv*d, conv_transpose*d
void add_norm_decompositions(DecompositionTable& t);        // layer_norm, group_norm
void add_functional_norm_decompositions(DecompositionTable& t);  // batch_norm
void add_activation_decompositions(DecompositionTable& t);  // softmax, silu, relu6, hard*
void add_functional_dropout_decompositions(DecompositionTable& t);
void add_pool_decompositions(DecompositionTable& t);        // max/avg/adaptive pooling
void add_attention_decompositions(DecompositionTable& t);   // scaled_dot_product_attention
void add_misc_decompositions(DecompositionTable& t);        // reductions, factories, scalars
void add_functional_misc_decompositions(DecompositionTable& t);  // lift_fresh_copy
void add_recurrent_decompositions(DecompositionTable& t);   // lstm, gru, rnn_tanh/relu unrolled
void add_position_decompositions(DecompositionTable& t);    // roll, triu/tril over arange; addcmul, fill.Tensor

// ---- the registry (SDK) ---------------------------------------------------------

/// Registers (or replaces) a named table. Thread-safe.
void register_decomposition_table(DecompositionTable table);
/// Registration when a library of custom tables loads:
///   static passes::RegisterDecompositionTable mine(make_my_table());
struct RegisterDecompositionTable {
  explicit RegisterDecompositionTable(DecompositionTable table) { register_decomposition_table(std::move(table)); }
};
/// A copy of a registered table; throws std::invalid_argument naming the
/// registered tables when `name` is unknown.
DecompositionTable decomposition_table(std::string_view name);
bool has_decomposition_table(std::string_view name);
/// Registered names, built-in tables first.
std::vector<std::string> decomposition_table_names();

}  // namespace exportlens::passes

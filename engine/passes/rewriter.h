#pragma once
// The lowering's rewriter: builds the lowered graph node by node, the way
// torch's retrace does, straight into the graph through the one
// ir::GraphBuilder (which makes, names and places every node):
//
//  * every call is named after its op (FX's namespace: "permute", "addmm_1",
//    builtins get a suffix: "sum_1"), in the order the calls are made;
//  * a call of an op the table decomposes runs the op's rule instead, and
//    the rule's own calls decompose further (dispatch, recursively);
//  * a multi-output op gets a getitem node for every output right away (as
//    make_fx does; unused ones are removed at the end);
//  * every node inherits the stack trace and module stack of the node being
//    lowered, and records it as its origin (provenance);
//  * values (sizes, dtype, strides) come from the shape rules (meta_inference.h);
//  * a symbolic size used as an argument becomes sym_size.int / operator nodes.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/graph_builder.h"
#include "engine/ir/purity.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/meta_inference.h"
#include "engine/passes/requires_grad.h"
#include "engine/passes/tensor_layout.h"

namespace exportlens::passes {

/// `inferred` with the symbolic sizes of `known` (the same values; the
/// program's own symbols win over ones the shape rules made up).
void keep_known_sizes(ir::ValueInfo& inferred, const ir::ValueInfo& known);

class Rewriter {
 public:
  /// Nodes go into `graph` as they are made, and commit() drops the dead
  /// ones; `table` (and functionalization_rules()) decide what decomposes;
  /// `pass` names the lowering in provenance records.
  Rewriter(ir::Graph& graph, const DecompositionTable& table, const Hints& hints, std::string pass);

  // ---- for rules ------------------------------------------------------------

  /// Calls `op` ("aten.permute.default"): its rule if the table has one, else a new node.
  ir::Argument call(std::string_view op, std::vector<ir::Argument> args, std::vector<ir::NamedArgument> kwargs = {});
  /// call() for an op with one tensor (or SymInt) result.
  ir::Node* call1(std::string_view op, std::vector<ir::Argument> args, std::vector<ir::NamedArgument> kwargs = {});
  /// call() for a multi-output op: its getitem nodes.
  std::vector<ir::Node*> call_n(std::string_view op, std::vector<ir::Argument> args,
                                std::vector<ir::NamedArgument> kwargs = {});
  /// A node for `target`, never decomposed. `known`: its value when the
  /// caller knows it (an op copied from the input program), else inferred;
  /// with `reinfer`, inferred anyway (the inputs' layout changed) and
  /// `known` only fills in what inference cannot tell.
  ir::Argument emit(const ir::Target& target, std::vector<ir::Argument> args, std::vector<ir::NamedArgument> kwargs,
                    const ir::ValueInfo* known = nullptr, bool reinfer = false);

  /// A rule's result stands for the program's node of value `source`: it
  /// keeps the source's own symbolic sizes (keep_known_sizes: a rule's fresh
  /// unbacked symbols are the same values), and a size
  /// only the source knew has this node as its origin.
  void adopt_value(ir::Argument& result, const ir::ValueInfo& source);

  const ir::TensorMeta& meta(const ir::Node* n) const;
  Dims sizes(const ir::Node* n) const { return meta(n).sizes; }
  size_t rank(const ir::Node* n) const { return meta(n).rank(); }
  ir::ScalarType dtype(const ir::Node* n) const { return meta(n).dtype; }
  bool is_contiguous(const ir::Node* n) const;
  const Hints& hints() const { return hints_; }
  /// Whether `n` requires grad in torch's retrace (requires_grad.h).
  bool requires_grad(const ir::Node* n) const { return requires_grad_.of(n); }

  /// A (possibly symbolic) int as an argument: the literal, or a node computing it.
  ir::Argument sym(const ir::SymInt& s);
  /// A list of sizes as an argument ([2, mul_5]).
  ir::Argument sym_list(const Dims& dims);
  /// The product of dims[begin, end) as a composite computes it
  /// (c10::multiply_integers: left to right, one operator.mul node per
  /// symbolic step), so the nodes have torch's operand order (s72 * s70 for
  /// an [s72, s70, ...] tensor, where the expression is sorted s70*s72).
  ir::Argument sym_product(const Dims& dims, size_t begin = 0, size_t end = SIZE_MAX);
  /// a + b the way a C++ composite computes it on SymInts: an operator.add
  /// node with the operands in that order ("1 + sym_size_int_1"); a literal
  /// when both are known, `b` itself when `a` is 0.
  ir::Argument sym_add_args(const ir::SymInt& a, const ir::SymInt& b);
  /// The -1 of a reshape as torch's infer_size computes it: numel (the
  /// sizes multiplied left to right) // the product of the other sizes, one
  /// operator.floordiv node — or the node already computing `quotient`
  /// (torch's runtime-assert pass hash-conses it), the products then dead.
  ir::Argument sym_inferred_size(const Dims& numel_dims, const Dims& known_dims, const ir::SymInt& quotient);
  /// `a op b` on SymInts as a Python reference computes it (torch._refs.roll's
  /// (size - shift) % size): one operator node (op "sub", "mod", ...) with the
  /// operands in that order, whose value is `value`; the literal when it is known.
  ir::Argument sym_operator(const char* op, ir::Argument a, ir::Argument b, const ir::SymInt& value);

  /// A rule tells that a value of the graph (`target`, e.g. a running-mean
  /// input of batch_norm) now holds `new_value` (functionalization).
  void mutate(ir::Node* target, ir::Node* new_value);
  void set_mutation_handler(std::function<void(ir::Node* target, ir::Node* new_value)> handler) {
    on_mutation_ = std::move(handler);
  }

  // ---- for the lowering driver -------------------------------------------------

  /// What the nodes made next carry. A region that changes it guards it with
  /// SaveAndRestore (engine/base/save_and_restore.h).
  struct Scope {
    /// Their metadata and provenance come from this node.
    const ir::Node* origin = nullptr;
    /// The stack trace and custom annotation they carry instead of their
    /// origin's (nullptr: the origin's). An inlined subgraph's nodes get the
    /// frame of the subgraph's generated code, as in torch.
    const ir::NodeMetadata* trace_override = nullptr;
    /// The annotation (meta.custom["custom"], JSON text) they carry where
    /// their origin has none: what a torch wrapper records around the Python
    /// it runs (decomp_helpers.h, DynamoDisabledRef).
    const std::string* annotation = nullptr;
  };
  Scope& scope() { return scope_; }
  void set_origin(const ir::Node* source) { scope_.origin = source; }
  const ir::Node* origin() const { return scope_.origin; }
  /// Placeholders' flags and the grad mode of the region being lowered.
  RequiresGrad& autograd() { return requires_grad_; }
  ir::Node* add_placeholder(const ir::Node& source);
  ir::Node* add_get_attr(const ir::Node& source);
  ir::Node* add_output(ir::Argument value);
  /// Removes the nodes the lowering left dead (unused and without effects)
  /// with the one dead-code elimination; returns how many went.
  int commit();
  /// What commit()'s dead-code elimination knows of op schemas (default: the process's, ir::schema_effects()).
  void use_schema_effects(ir::SchemaEffectsLookup schemas) { schemas_ = std::move(schemas); }
  /// Remembers `n` as the node computing its SymInt value.
  void remember_sym(ir::Node* n);
  bool decomposes(std::string_view op) const;
  const DecompositionRule* rule_for(std::string_view op) const;

  /// Rules that failed and left their op in place ("aten.x.default (node n): why").
  const std::vector<std::string>& warnings() const { return warnings_; }
  void warn(std::string message) { warnings_.push_back(std::move(message)); }
  int rules_applied() const { return rules_applied_; }

 private:
  std::unique_ptr<ir::Node> new_node(ir::OpKind op, std::string_view name_candidate);
  /// Inserts `node` where torch's retrace has it: a placeholder after the
  /// others, a body node at the insertion point (the end, or after the
  /// producer of a size being rebuilt).
  ir::Node* place(std::unique_ptr<ir::Node> node);
  /// Inserts a sym_size.int of input `key.first`'s dim `key.second` among
  /// the top ones, ordered by input and dimension as torch places them.
  ir::Node* place_top_size(std::pair<size_t, size_t> key, std::unique_ptr<ir::Node> node);
  ir::Argument add_getitems(ir::Node* parent);
  ir::Node* materialize(const ir::SymInt& s);
  ir::Node* build_size(const ir::SymInt& s);
  static bool computes_sizes_in_meta(const ir::Target& target);
  void note_size_producer(ir::Node* n, const ir::Node& op);
  /// `spatial_in_meta`: computes_sizes_in_meta(op.target), asked once per node.
  void note_size_origin(ir::Node* n, size_t dim, const ir::Node& op, bool spatial_in_meta);
  /// Operands of a size node the runtime-assert pass replaced by an earlier one: kept, unused.
  void keep_operands_of_replaced(const std::vector<ir::Argument>& operands);
  ir::Node* origin_of_use(const symbolic::Expr& size) const;
  /// The node a size rebuilt after `producer` goes before (nullptr: the end).
  ir::Node* position_after(const ir::Node* producer) const;
  bool placed_before_insertion(const ir::Node* n) const;
  /// Whether `n` is `position` or comes after it (nullptr: the end).
  static bool placed_at_or_after(const ir::Node* n, const ir::Node* position);
  void forward_uses(ir::Node* from, ir::Node* to);
  ir::Node* sym_size_node(const symbolic::Expr& symbol);
  /// The input (placeholder index) and dimension whose size is `symbol`, if any.
  std::optional<std::pair<size_t, size_t>> input_dim_holding(const symbolic::Expr& symbol) const;
  ir::Node* sym_binary(const char* op, ir::Argument a, ir::Argument b, const ir::SymInt& value,
                       bool hash_cons = true);

  ir::Graph& graph_;
  const DecompositionTable& table_;
  const Hints& hints_;
  std::string pass_;
  ir::GraphBuilder nodes_;  // makes, names and places the nodes (the tracer's builder too)
  MetaInference inference_;
  Scope scope_;
  ir::NodeMetadata meta_for_new_node() const;
  std::unordered_map<symbolic::Expr, ir::Node*> sym_nodes_;
  // The last node whose output holds each size as a new value (a conv's
  // spatial sizes, a cat's summed dim): torch's retrace asks that output for
  // the size (sym_size.int on it) and its runtime-assert pass rebuilds it
  // from the inputs' sizes there, with that node's stack trace.
  std::unordered_map<symbolic::Expr, ir::Node*> size_producers_;
  // Per tensor node and dimension, the node whose output first held that
  // size as a new value (torch: the SymInt object, which ops that do not
  // compute a size pass on — broadcasting takes the first operand's that
  // is not 1); nullptr for literal and input sizes.
  std::unordered_map<const ir::Node*, std::vector<ir::Node*>> size_origins_;
  // The operands of the rules being run, innermost last: a size a rule asks
  // for is read from one of them.
  std::vector<const std::vector<ir::Argument>*> call_args_;
  // Size nodes replaced by an earlier node of the same value (the
  // runtime-assert pass keeps the first in graph order): later uses go there.
  std::unordered_map<ir::Node*, ir::Node*> forwarded_;
  // Size nodes the program computed whose only user was replaced by an
  // earlier node of the same value: torch leaves them in the graph.
  std::unordered_set<const ir::Node*> kept_unused_;
  // While a size is rebuilt after its producer (nodes_' insertion point is
  // there): whose metadata the new nodes carry.
  bool rebuilding_ = false;
  std::unordered_map<const ir::Node*, const ir::Node*> last_rebuilt_after_;  // producer -> last node placed after it
  const ir::NodeMetadata* meta_override_ = nullptr;
  // The graph's three parts, in torch's order: the placeholders, the
  // sym_size.int nodes of input sizes (by (input, dim)), then the body, which
  // starts at body_begin_ (nullptr: empty so far).
  std::vector<ir::Node*> placeholders_;
  std::vector<std::pair<std::pair<size_t, size_t>, ir::Node*>> top_sym_sizes_;
  ir::Node* body_begin_ = nullptr;
  std::function<void(ir::Node*, ir::Node*)> on_mutation_;
  ir::SchemaEffectsLookup schemas_ = ir::schema_effects();
  RequiresGrad requires_grad_;
  std::vector<std::string> warnings_;
  int depth_ = 0;
  int rules_applied_ = 0;
};

}  // namespace exportlens::passes

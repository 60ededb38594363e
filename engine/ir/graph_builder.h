#pragma once
// The one graph builder, as MLIR's OpBuilder serves its parser and its
// passes and torch.fx's Graph.create_node / inserting_before serve tracing
// and transforms. It makes every node the same way, names it in one FX
// namespace per graph (FX's create_name: "add", "add_1", "sum_1"), and
// places it at its insertion point (the end unless moved; InsertionGuard
// puts the point back when a scope ends). The tracer (trace/graph_recorder.h),
// the lowering (passes/rewriter.h), the file readers (serde, capture) and the
// test helpers all build through it.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/ir/fx_namespace.h"
#include "engine/ir/graph.h"

namespace exportlens::ir {

class GraphBuilder {
 public:
  explicit GraphBuilder(Graph& graph) : graph_(&graph) {}

  // ---- where nodes go ----------------------------------------------------------
  /// New nodes go before `before` (nullptr: at the end), in the order made.
  void set_insertion_point(Node* before) { insert_before_ = before; }
  void set_insertion_point_after(const Node* n) { insert_before_ = n->next(); }
  Node* insertion_point() const { return insert_before_; }
  /// Restores the insertion point when the scope ends (MLIR's InsertionGuard).
  class InsertionGuard {
   public:
    explicit InsertionGuard(GraphBuilder& b) : b_(b), saved_(b.insert_before_) {}
    ~InsertionGuard() { b_.insert_before_ = saved_; }
    InsertionGuard(const InsertionGuard&) = delete;
    InsertionGuard& operator=(const InsertionGuard&) = delete;

   private:
    GraphBuilder& b_;
    Node* saved_;
  };

  // ---- nodes made and placed at the insertion point -------------------------------
  /// A call_function node of `target`, named from `candidate`.
  Node* call(const Target& target, std::string_view candidate, std::vector<Argument> args,
             std::vector<NamedArgument> kwargs = {});
  /// A placeholder named exactly `name` (an input keeps its name, as torch's
  /// naming pass does); the name is reserved, later nodes do not take it.
  Node* placeholder(const std::string& exact);
  /// A get_attr node reading `attr`, named from `candidate`.
  Node* get_attr(std::string_view candidate, std::string attr);
  Node* output(Argument result);
  /// Places a node made by a make*() below and filled in since.
  Node* insert(std::unique_ptr<Node> node);

  // ---- nodes made but not placed yet, for a caller that fills in more (its
  // ---- value, its metadata, operands it still rewrites) before insert() ----------
  /// A node of `kind`, named from `candidate`.
  std::unique_ptr<Node> make(OpKind kind, std::string_view candidate);
  std::unique_ptr<Node> make_call(const Target& target, std::string_view candidate, std::vector<Argument> args,
                                  std::vector<NamedArgument> kwargs = {});
  /// A node named exactly `exact`, the name reserved (placeholder()).
  std::unique_ptr<Node> make_exact(OpKind kind, const std::string& exact);
  std::unique_ptr<Node> make_get_attr(std::string_view candidate, std::string attr);
  std::unique_ptr<Node> make_output(Argument result);
  /// A node named `as_written` (a name read from a file, kept as torch's
  /// deserializer keeps it) or, when the graph has that name already, the
  /// first free `as_written_1`, `as_written_2`, ...; not placed yet.
  std::unique_ptr<Node> make_as_written(OpKind kind, const std::string& as_written);
  /// A fresh name from `candidate` in this graph's namespace.
  std::string name(std::string_view candidate) { return names_.create_name(candidate, nullptr); }
  /// Reserves `exact` (a name kept from elsewhere) so later names avoid it.
  void reserve(const std::string& exact) { names_.create_name(exact, nullptr); }

 private:
  Graph* graph_;
  Node* insert_before_ = nullptr;
  FxNamespace names_;
  // make_as_written(): nodes are read in order, so every suffix below the
  // one remembered per name is taken for good (n equal names: O(n log n)).
  std::unordered_map<std::string, int64_t> next_suffix_;
};

/// The name base FX gives a call of `target`: its op ("add" for
/// aten.add.Tensor, "cond" for higher_order.cond), else the last part of the
/// qualified name ("getitem" for _operator.getitem).
std::string call_name(const Target& target);

}  // namespace exportlens::ir

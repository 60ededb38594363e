#pragma once
// The one node-making core of graph construction, shared by the tracer
// (trace/graph_builder.h) and the lowering (passes/graph_builder.h), as
// MLIR's OpBuilder serves its parser and its passes and torch.fx's
// Graph.create_node serves tracing and transforms: every node is named in
// one FX namespace per graph (FX's create_name: "add", "add_1", "sum_1") and
// made the same way. Where a node goes (appended, inserted after an anchor,
// held back until dead nodes are dropped) stays with the caller.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/fx_namespace.h"
#include "engine/ir/node.h"

namespace exportlens::ir {

class GraphBuilder {
 public:
  /// A node of `kind`, named from `candidate`.
  std::unique_ptr<Node> node(OpKind kind, std::string_view candidate);
  /// A call_function node of `target`, named from `candidate`.
  std::unique_ptr<Node> call(const Target& target, std::string_view candidate, std::vector<Argument> args,
                             std::vector<NamedArgument> kwargs = {});
  /// A placeholder named exactly `name` (an input keeps its name, as torch's
  /// naming pass does); the name is reserved, later nodes do not take it.
  std::unique_ptr<Node> placeholder(const std::string& exact);
  /// A get_attr node reading `attr`, named from `candidate`.
  std::unique_ptr<Node> get_attr(std::string_view candidate, std::string attr);
  std::unique_ptr<Node> output(Argument result);
  /// A fresh name from `candidate` in this graph's namespace.
  std::string name(std::string_view candidate) { return names_.create_name(candidate, nullptr); }

 private:
  FxNamespace names_;
};

/// The name base FX gives a call of `target`: its op ("add" for
/// aten.add.Tensor, "cond" for higher_order.cond), else the last part of the
/// qualified name ("getitem" for _operator.getitem).
std::string call_name(const Target& target);

}  // namespace exportlens::ir

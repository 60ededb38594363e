#include "engine/passes/dead_code_elimination.h"

#include <set>
#include <string>

#include "engine/passes/functionalize.h"
#include "engine/passes/op_call.h"

namespace exportlens::passes {

bool has_side_effects(const ir::Node& node) {
  if (node.op != ir::OpKind::CallFunction) return true;
  static const std::set<std::string, std::less<>> effectful = {
      "aten._assert_scalar.default",   "aten._assert_tensor_metadata.default",
      "aten._assert_async.default",    "aten._assert_async.msg",
      "aten.sym_constrain_range.default", "aten.sym_constrain_range_for_size.default",
      "aten._print.default",           "aten._functional_assert_async.msg",
      "aten._functional_sym_constrain_range.default",
      "aten._functional_sym_constrain_range_for_size.default",
  };
  const std::string key = op_key(node.target);
  if (effectful.count(key)) return true;
  if (node.target.is_higher_order())
    return node.target.op_name() != "cond" && node.target.op_name() != "map_impl";
  return functional_variant(key).has_value();  // an in-place op mutates even when unused
}

int eliminate_dead_code(ir::Graph& graph) {
  int removed = 0;
  const auto nodes = graph.nodes();
  // Reverse order: a node's users come after it, so one sweep reaches the fixed point.
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    ir::Node* n = *it;
    if (!n->users().empty() || has_side_effects(*n)) continue;
    graph.erase(n);
    ++removed;
  }
  return removed;
}

int eliminate_dead_code(ir::GraphModule& gm) {
  int removed = eliminate_dead_code(gm.graph);
  for (auto& [name, sub] : gm.submodules) removed += eliminate_dead_code(*sub);
  return removed;
}

}  // namespace exportlens::passes

#include "engine/passes/node_expansion.h"

#include <unordered_map>

#include "engine/passes/functionalize.h"
#include "engine/passes/rewriter.h"

namespace exportlens::passes {

namespace {

Hints hints_of_inputs(const ir::Node& node) {
  Hints h;
  node.for_each_input([&](const ir::Node* in) {
    if (!in) return;
    if (const auto* t = in->value.tensor()) h.learn(*t);
    if (const auto* s = in->value.sym_int()) h.learn(*s);
  });
  return h;
}

}  // namespace

NodeExpansion expand_node(const ir::Node& node, const DecompositionTable& table) {
  if (node.op != ir::OpKind::CallFunction || !node.target.is_torch_op())
    throw DecompositionError("only op calls expand ('" + node.name + "' is not one)");
  NodeExpansion out;
  const Hints hints = hints_of_inputs(node);
  Rewriter b(out.graph.graph, table, hints, table.name());
  b.set_mutation_handler([](ir::Node*, ir::Node*) {});  // an expansion shows values, not state
  std::unordered_map<const ir::Node*, ir::Node*> inputs;
  node.for_each_input([&](const ir::Node* in) {
    if (in && !inputs.count(in)) inputs[in] = b.add_placeholder(*in);
  });
  auto map = [&](const ir::Argument& a) {
    ir::Argument m = a;
    if (const ir::Node* n = a.node()) return ir::Argument(inputs.at(n));
    if (const ir::ArgumentList* l = a.list()) {
      ir::ArgumentList list{{}, l->is_tuple};
      for (const auto& item : l->items) list.items.push_back(item.node() ? ir::Argument(inputs.at(item.node())) : item);
      m = list;
    }
    return m;
  };
  std::vector<ir::Argument> args;
  for (const auto& a : node.args()) args.push_back(map(a));
  std::vector<ir::NamedArgument> kwargs;
  for (const auto& kw : node.kwargs()) kwargs.push_back({kw.name, map(kw.value)});
  b.set_origin(&node);
  std::string key = op_key(node.target);
  if (auto functional = functional_variant(key)) key = *functional;
  out.rule = b.rule_for(key);
  out.decomposed = out.rule != nullptr;
  ir::Argument result = out.decomposed ? b.call(key, std::move(args), std::move(kwargs))
                                       : b.emit(node.target, std::move(args), std::move(kwargs), &node.value);
  b.add_output(result.list() ? result : ir::Argument(ir::ArgumentList{{result}, true}));
  b.commit();
  out.warnings = b.warnings();
  return out;
}

}  // namespace exportlens::passes

#include "engine/trace/control_flow.h"

#include "engine/trace/fake_tensor.h"
#include "engine/trace/source_locator.h"
#include "engine/trace/sym_node.h"
#include "engine/trace/trace_errors.h"

namespace exportlens::trace {

namespace {

struct Traced {
  std::shared_ptr<ir::GraphModule> gm;
  std::vector<ops::SymValue> outputs;
};

/// Restores the outer graph (and closure policy) however the branch ends.
class SubgraphScope {
 public:
  SubgraphScope(Tracer& t, ir::GraphModule& gm, const std::string& what) : t_(t) {
    t_.graph().begin_subgraph(gm);
    t_.set_capture([this, what](ir::Node* outer) -> ir::Node* {
      raise(t_, TraceError("unsupported", "torch._dynamo.exc.UncapturedHigherOrderOpError",
                           what + " reads '" + outer->name +
                               "', a value from outside its operands. The C++ tracer requires branch and body "
                               "functions to take every tensor they use as an operand (add it to the operands)."));
    });
  }
  ~SubgraphScope() {
    t_.set_capture(nullptr);
    t_.graph().end_subgraph();
  }

 private:
  Tracer& t_;
};

void stamp_site(ir::Node* n, const ir::SourceLocation& site) {
  n->meta.stack_trace = SourceLocator::stack_trace_text(site);
}

/// Traces `fn` into a new graph whose placeholders stand for `inputs` (named
/// after the outer values they receive).
Traced trace_body(Tracer& t, const std::vector<std::pair<ir::Node*, ops::SymTensor>>& inputs,
                  const std::function<sdk::Tensors(const sdk::Tensors&)>& fn, const std::string& what,
                  const ir::SourceLocation& site) {
  Traced out;
  out.gm = std::make_shared<ir::GraphModule>();
  SubgraphScope scope(t, *out.gm, what);
  sdk::Tensors fakes;
  std::vector<ir::Node*> placeholders;
  for (const auto& [outer, sym] : inputs) {
    ir::Node* p = t.graph().placeholder(outer->name, ops::SymValue::of(sym), false);
    placeholders.push_back(p);
    fakes.push_back(t.make_fake(p, sym));
  }
  sdk::Tensors results;
  {
    Tracer::Activation model_code(t);
    results = fn(fakes);
  }
  t.rethrow_pending_error();
  ir::ArgumentList list{{}, true};
  for (const at::Tensor& r : results) {
    ir::Node* n = t.node_for(r);
    if (!n) raise(t, TraceError("unsupported", "RuntimeError", what + " returned an undefined tensor"));
    list.items.push_back(n);
    out.outputs.push_back(t.graph().value(n));
  }
  ir::Node* o = t.graph().output(list);
  stamp_site(o, site);
  // Torch's restriction: branches must not mutate their inputs.
  for (const ir::Node* n : out.gm->graph.nodes()) {
    if (n->op != ir::OpKind::CallFunction || !n->target.is_torch_op()) continue;
    const std::string op = n->target.op_name();
    if (op.empty() || op.back() != '_' || n->args().empty()) continue;
    const ir::Node* target = n->args()[0].node();
    if (target && target->op == ir::OpKind::Placeholder)
      raise(t, TraceError("unsupported", "torch._dynamo.exc.UncapturedHigherOrderOpError",
                          what + " mutates its input '" + target->name + "' (" + n->target.short_name() +
                              "); cond and map bodies must not mutate their inputs"));
  }
  return out;
}

std::string next_name(const ir::GraphModule& gm, const std::string& prefix) {
  int count = 0;
  for (const auto& [name, sub] : gm.submodules)
    if (name.rfind(prefix, 0) == 0) ++count;
  return prefix + std::to_string(count);
}

std::string describe(const ops::SymValue& v, const symbolic::ShapeEnv& env) {
  ops::SymValue s = v;
  if (s.is_tensor())
    for (auto& d : s.tensor.sizes) d = env.replace(d);
  return s.str();
}

std::vector<std::pair<ir::Node*, ops::SymTensor>> operand_values(Tracer& t, const sdk::Tensors& operands,
                                                                 const std::string& what) {
  std::vector<std::pair<ir::Node*, ops::SymTensor>> out;
  for (const at::Tensor& x : operands) {
    ir::Node* n = t.node_for(x);
    const ops::SymValue& v = t.graph().value(n);
    if (!n || !v.is_tensor())
      raise(t, TraceError("unsupported", "RuntimeError", what + ": every operand must be a tensor"));
    out.emplace_back(n, v.tensor);
  }
  return out;
}

/// The graph outputs of a higher-order op call: getitem nodes and fakes.
sdk::Tensors unpack(Tracer& t, ir::Node* call, const std::vector<ops::SymValue>& outputs) {
  sdk::Tensors result;
  for (size_t i = 0; i < outputs.size(); ++i) {
    ir::Node* g = t.graph().call(ir::Target("_operator.getitem"), "getitem", {call, int64_t(i)});
    g->meta = call->meta;
    t.graph().set_value(g, outputs[i]);
    result.push_back(t.make_fake(g, outputs[i].tensor));
  }
  return result;
}

}  // namespace

sdk::Tensors trace_cond(Tracer& t, const c10::IValue& pred, const sdk::BranchFn& on_true,
                        const sdk::BranchFn& on_false, const sdk::Tensors& operands, const ir::SourceLocation& site) {
  // A predicate known now picks its branch (torch.cond with a Python bool does the same).
  auto call_directly = [&](bool which) {
    Tracer::Activation model_code(t);
    return which ? on_true(operands) : on_false(operands);
  };
  ir::Argument pred_arg;
  if (pred.isBool()) return call_directly(pred.toBool());
  if (pred.isSymBool()) {
    const c10::SymBool b = pred.toSymBool();
    if (auto known = b.maybe_as_bool()) return call_directly(*known);
    pred_arg = t.argument_for(b.toSymNodeImpl());
  } else if (pred.isTensor()) {
    ir::Node* n = t.node_for(pred.toTensor());
    const ops::SymValue& v = t.graph().value(n);
    bool single = v.is_tensor();
    for (const auto& d : v.tensor.sizes) single = single && t.env().replace(d) == symbolic::Expr(1);
    if (!single)
      raise(t, TraceError("unsupported", "torch._dynamo.exc.UncapturedHigherOrderOpError",
                          "torch.cond: the predicate must be a boolean or a single-element tensor, got " +
                              describe(v, t.env())));
    pred_arg = n;
  } else {
    raise(t, TraceError("unsupported", "RuntimeError", "torch.cond: the predicate must be a bool, SymBool or tensor"));
  }

  const auto inputs = operand_values(t, operands, "torch.cond");
  Traced yes = trace_body(t, inputs, on_true, "torch.cond's true branch", site);
  Traced no = trace_body(t, inputs, on_false, "torch.cond's false branch", site);
  if (yes.outputs.size() != no.outputs.size())
    raise(t, TraceError("unsupported", "torch._dynamo.exc.UncapturedHigherOrderOpError",
                        "torch.cond: the true branch returns " + std::to_string(yes.outputs.size()) +
                            " tensors and the false branch " + std::to_string(no.outputs.size())));
  for (size_t i = 0; i < yes.outputs.size(); ++i) {
    const std::string a = describe(yes.outputs[i], t.env()), b = describe(no.outputs[i], t.env());
    if (a != b)
      raise(t, TraceError("unsupported", "torch._dynamo.exc.UncapturedHigherOrderOpError",
                          "torch.cond: expected both branches to return tensors with the same metadata; output " +
                              std::to_string(i) + " is " + a + " in the true branch and " + b + " in the false branch"));
  }

  ir::GraphModule& gm = t.graph().module();
  const std::string true_name = next_name(gm, "true_graph_"), false_name = next_name(gm, "false_graph_");
  gm.submodules.emplace_back(true_name, yes.gm);
  gm.submodules.emplace_back(false_name, no.gm);
  ir::Node* g_true = t.graph().get_attr(true_name);
  ir::Node* g_false = t.graph().get_attr(false_name);
  ir::ArgumentList ops_list;
  std::vector<ir::Node*> input_nodes;
  for (const auto& [n, sym] : inputs) {
    ops_list.items.push_back(n);
    input_nodes.push_back(n);
  }
  ir::Node* call = t.graph().call(ir::Target("torch.ops.higher_order.cond"), "cond",
                                  {pred_arg, g_true, g_false, ops_list});
  for (ir::Node* n : {g_true, g_false, call}) {
    stamp_site(n, site);
    t.stamp_scope(n, input_nodes);
  }
  t.graph().set_value(call, ops::SymValue::list(yes.outputs));
  return unpack(t, call, yes.outputs);
}

sdk::Tensors trace_map(Tracer& t, const sdk::MapBodyFn& body, const sdk::Tensors& xs, const sdk::Tensors& args,
                       const ir::SourceLocation& site) {
  const auto mapped = operand_values(t, xs, "torch.map");
  const auto extra = operand_values(t, args, "torch.map");
  if (mapped.empty()) raise(t, TraceError("unsupported", "RuntimeError", "torch.map needs a tensor to map over"));
  std::vector<std::pair<ir::Node*, ops::SymTensor>> inputs;
  for (const auto& [n, sym] : mapped) {
    if (sym.sizes.empty())
      raise(t, TraceError("unsupported", "RuntimeError", "torch.map: '" + n->name + "' has no dimension to map over"));
    ops::SymTensor slice = sym;
    slice.sizes.erase(slice.sizes.begin());
    inputs.emplace_back(n, slice);
  }
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  const size_t n_mapped = mapped.size();
  Traced traced = trace_body(
      t, inputs,
      [&](const sdk::Tensors& all) {
        return body(sdk::Tensors(all.begin(), all.begin() + long(n_mapped)),
                    sdk::Tensors(all.begin() + long(n_mapped), all.end()));
      },
      "torch.map's body", site);
  const symbolic::Expr steps = mapped[0].second.sizes[0];
  std::vector<ops::SymValue> stacked;
  for (ops::SymValue v : traced.outputs) {
    v.tensor.sizes.insert(v.tensor.sizes.begin(), steps);
    stacked.push_back(std::move(v));
  }
  ir::GraphModule& gm = t.graph().module();
  const std::string name = next_name(gm, "body_graph_");
  gm.submodules.emplace_back(name, traced.gm);
  ir::Node* g_body = t.graph().get_attr(name);
  ir::ArgumentList xs_list, args_list;
  std::vector<ir::Node*> input_nodes;
  for (const auto& [n, sym] : mapped) {
    xs_list.items.push_back(n);
    input_nodes.push_back(n);
  }
  for (const auto& [n, sym] : extra) {
    args_list.items.push_back(n);
    input_nodes.push_back(n);
  }
  ir::Node* call = t.graph().call(ir::Target("torch.ops.higher_order.map_impl"), "map_impl",
                                  {g_body, xs_list, args_list});
  for (ir::Node* n : {g_body, call}) {
    stamp_site(n, site);
    t.stamp_scope(n, input_nodes);
  }
  t.graph().set_value(call, ops::SymValue::list(stacked));
  return unpack(t, call, stacked);
}

}  // namespace exportlens::trace

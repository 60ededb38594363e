#include "engine/ir/purity.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace exportlens::ir {
namespace {

using NameSet = std::set<std::string_view, std::less<>>;

// torch.fx.node._side_effectful_functions (torch 2.13), by the name fx gives
// each (`_get_qualified_name`), plus what torch adds to it on import:
// proxy_tensor's predispatch wrappers, prims' _sink_tokens. torch looks an
// OpOverloadPacket up by its own name as well, so a packet's overloads are
// listed one by one (profiler._record_function_enter has only `default`).
const NameSet& side_effectful_functions() {
  static const NameSet names = {
      // asserts and range constraints: what the program checks at run time
      "torch._assert",
      "torch._assert_async",
      "torch.ops.aten._assert_async.msg",
      "torch.ops.aten._assert_scalar.default",
      "torch.ops.aten._assert_tensor_metadata.default",
      "torch.ops.aten.sym_constrain_range.default",
      "torch.ops.aten.sym_constrain_range_for_size.default",
      // profiler ranges (record_function)
      "torch.ops.profiler._record_function_enter",
      "torch.ops.profiler._record_function_enter.default",
      "torch.ops.profiler._record_function_enter_new",
      "torch.ops.profiler._record_function_enter_new.default",
      "torch.ops.profiler._record_function_exit",
      "torch.ops.profiler._record_function_exit._RecordFunction",
      // inductor's in-place helpers, effect tokens
      "torch.ops.inductor.accumulate_grad_.default",
      "torch.ops.inductor.resize_storage_bytes_.default",
      "torch.ops.prims._sink_tokens.default",
      // Python state a pre-dispatch graph switches
      "_operator.setitem",
      "operator.setitem",
      "torch._C._set_grad_enabled",
      "torch.amp.autocast_mode._enter_autocast",
      "torch.amp.autocast_mode._exit_autocast",
      "torch._functorch.predispatch._enter_dual_level",
      "torch._functorch.predispatch._exit_dual_level",
      "torch._functorch.predispatch._jvp_decrement_nesting",
      "torch._functorch.predispatch._jvp_increment_nesting",
      // torchbind calls (torch/_higher_order_ops/torchbind.py: has_side_effect)
      "torch.ops.higher_order.call_torchbind",
  };
  return names;
}

// The ops torch registers with an effect (torch/_higher_order_ops/effects.py,
// `_register_effectful_op(..., EffectType.ORDERED)`), by op name: every
// overload. (profiler::_record_function_exit is registered with no effect; it
// is side-effectful above.)
const NameSet& effectful_ops() {
  static const NameSet names = {
      "aten::_print",                // prints
      "aten::_linalg_check_errors",  // raises on a failed factorization; no tensor output
  };
  return names;
}

// torch._library.utils._RANDOM_FUNCTIONS: Python random functions a
// pre-dispatch graph may call, impure whatever their generator.
const NameSet& random_functions() {
  static const NameSet names = {
      "torch.rand",          "torch.randn",          "torch.randint",   "torch.randperm",
      "torch.rand_like",     "torch.randn_like",     "torch.randint_like", "torch.normal",
      "torch.poisson",       "torch.bernoulli",      "torch.multinomial",
  };
  return names;
}

// Higher-order ops (torch.ops.higher_order.NAME). torch's rule for them
// (torch/_library/utils.py is_impure): impure only when an effect is
// registered for the HOP or it is in _side_effectful_functions; it never
// looks into a HOP's subgraphs (fx: "GraphModule submodules [are] pure, even
// if they contain impure ops"), so a HOP whose body asserts or mutates is
// still removed when nothing reads it. The auto_functionalized pair is
// decided by the op it wraps (below). A HOP not listed is pure, as torch
// treats any HOP without a registered effect.
enum class HopPurity { Pure, Impure, ByWrappedOp };

HopPurity hop_purity(std::string_view name) {
  static const std::unordered_map<std::string_view, HopPurity> table = {
      // Effects torch registers (effects.py, ORDERED): each call must run, in order.
      {"call_torchbind", HopPurity::Impure},        // a method of a script object (state)
      {"print", HopPurity::Impure},                 // torch._higher_order_ops.print
      {"invoke_leaf_function", HopPurity::Impure},  // an opaque Python function
      // auto_functionalized(op, ...) is the functional form of a mutating op:
      // impure only when the op it wraps is side-effectful.
      {"auto_functionalized", HopPurity::ByWrappedOp},
      {"auto_functionalized_v2", HopPurity::ByWrappedOp},
      // with_effects(token, op, ...) threads an effect token: the new token is
      // an output of the program, which keeps the call; the HOP itself has no
      // registered effect (torch marks the wrapped op side-effectful instead).
      {"with_effects", HopPurity::Pure},
      // Control flow: the value is the subgraphs' result; nothing else happens.
      {"cond", HopPurity::Pure},
      {"map_impl", HopPurity::Pure},
      {"while_loop", HopPurity::Pure},
      {"while_loop_stack_output", HopPurity::Pure},
      {"scan", HopPurity::Pure},
      {"associative_scan", HopPurity::Pure},
      // Wrappers: a subgraph run in a context, or a marker around values.
      {"wrap", HopPurity::Pure},
      {"wrap_with_set_grad_enabled", HopPurity::Pure},
      {"wrap_with_autocast", HopPurity::Pure},
      {"invoke_subgraph", HopPurity::Pure},
      {"hints_wrapper", HopPurity::Pure},
      {"strict_mode", HopPurity::Pure},
      {"_export_tracepoint", HopPurity::Pure},  // module-call boundaries (unflattening), no effect registered
      {"run_const_graph", HopPurity::Pure},     // constant folding's subgraph over constants
      {"flex_attention", HopPurity::Pure},
      {"out_dtype", HopPurity::Pure},
      {"executorch_call_delegate", HopPurity::Pure},
      {"aoti_call_delegate", HopPurity::Pure},
      // Torch registers no effect for the mutating Triton wrapper either.
      {"triton_kernel_wrapper_mutation", HopPurity::Pure},
      {"triton_kernel_wrapper_functional", HopPurity::Pure},
  };
  auto it = table.find(name);
  return it == table.end() ? HopPurity::Pure : it->second;
}

std::mutex schema_source_mutex;
SchemaEffectsLookup& schema_source() {
  static SchemaEffectsLookup source;
  return source;
}

// "aten.add_.Tensor" or "torch.ops.aten.add_.Tensor" (how a HOP's operator
// argument reads) as a qualified target.
std::string qualified_op(const std::string& text) {
  return text.rfind("torch.ops.", 0) == 0 ? text : "torch.ops." + text;
}

}  // namespace

void set_schema_effects(SchemaEffectsLookup lookup) {
  std::lock_guard<std::mutex> lock(schema_source_mutex);
  schema_source() = std::move(lookup);
}

SchemaEffectsLookup with_file_signatures(SchemaEffectsLookup schemas, const OpSignatureMap& file_signatures) {
  std::map<std::string, SchemaEffects, std::less<>> recorded;
  for (const auto& [name, sig] : file_signatures)
    if (sig.complete)
      recorded[name].writes_argument = sig.writes_an_argument();
  if (recorded.empty()) return schemas;
  return [schemas = std::move(schemas), recorded = std::move(recorded)](const std::string& name) -> std::optional<SchemaEffects> {
    if (schemas)
      if (auto known = schemas(name)) return known;
    if (auto it = recorded.find(name); it != recorded.end()) return it->second;
    return std::nullopt;
  };
}

SchemaEffectsLookup schema_effects() {
  std::lock_guard<std::mutex> lock(schema_source_mutex);
  return schema_source();
}

bool is_impure(const Node& node, const SchemaEffectsLookup& schemas) {
  switch (node.op) {
    case OpKind::Placeholder:
    case OpKind::Output: return true;
    case OpKind::GetAttr: return false;
    case OpKind::CallFunction: break;
  }
  const Target& target = node.target;
  const std::string& name = target.qualified();
  if (side_effectful_functions().count(name)) return true;
  if (target.is_higher_order()) {
    switch (hop_purity(target.op_name())) {
      case HopPurity::Impure: return true;
      case HopPurity::Pure: return false;
      case HopPurity::ByWrappedOp: {
        const auto* op = node.args().empty() ? nullptr : std::get_if<OperatorRef>(&node.args()[0].v);
        return op && side_effectful_functions().count(qualified_op(op->qualified));
      }
    }
  }
  if (target.is_torch_op()) {
    if (effectful_ops().count(target.op_namespace() + "::" + target.op_name())) return true;
    if (!schemas) return false;
    const std::optional<SchemaEffects> effects = schemas(target.schema_name());
    // An op this process has no schema for (a custom op registered from
    // Python) that returns nothing survived torch's own dead-code
    // elimination: torch's schema says it writes an argument.
    if (!effects) return !node.value.known() && node.users().empty();
    return effects->writes_argument || effects->nondeterministic_seeded;
  }
  return random_functions().count(name) > 0;
}

int eliminate_dead_code(Graph& graph, const SchemaEffectsLookup& schemas, const std::function<bool(const Node&)>& keep) {
  // fx's sweep from the back: a node goes when no remaining node uses it. The
  // nodes are erased together at the end (one pass over the graph).
  const std::vector<Node*> nodes = graph.nodes();
  std::unordered_map<const Node*, size_t> users;
  for (const Node* n : nodes) users[n] = n->users().size();
  std::unordered_set<const Node*> dead;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const Node* n = *it;
    if (users[n] != 0 || is_impure(*n, schemas) || (keep && keep(*n))) continue;
    dead.insert(n);
    std::vector<const Node*> inputs;  // each input's user list holds n once
    n->for_each_input([&](const Node* in) {
      if (in && std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
    });
    for (const Node* in : inputs) --users[in];
  }
  graph.erase_all(dead);
  return static_cast<int>(dead.size());
}

int eliminate_dead_code(GraphModule& gm, const SchemaEffectsLookup& schemas) {
  int removed = eliminate_dead_code(gm.graph, schemas);
  std::set<std::string, std::less<>> named;
  for (const Node* n : gm.graph.nodes())
    if (n->op == OpKind::GetAttr) named.insert(n->attr);
  for (auto& [name, sub] : gm.submodules)
    if (named.count(name)) removed += eliminate_dead_code(*sub, schemas);
  return removed;
}

}  // namespace exportlens::ir

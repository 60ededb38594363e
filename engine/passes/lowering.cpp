#include "engine/passes/lowering.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "engine/base/save_and_restore.h"
#include "engine/ir/graph_codegen.h"
#include "engine/ir/higher_order.h"
#include "engine/passes/auto_functionalize.h"
#include "engine/passes/autocast_policy.h"
#include "engine/passes/functionalize.h"
#include "engine/passes/rewriter.h"
#include "engine/passes/view_ops.h"
#include "engine/passes/retrace_input_order.h"

namespace exportlens::passes {

namespace {

/// The example value of every symbol the program knows one for.
Hints program_hints(const ir::GraphModule& gm) {
  Hints h;
  std::vector<const ir::GraphModule*> todo{&gm};
  while (!todo.empty()) {
    const ir::GraphModule* g = todo.back();
    todo.pop_back();
    for (const ir::Node* n : g->graph.nodes()) {
      if (const auto* t = n->value.tensor()) h.learn(*t);
      if (const auto* s = n->value.sym_int()) h.learn(*s);
    }
    for (const auto& [name, sub] : g->submodules) todo.push_back(sub.get());
  }
  return h;
}

/// Whether a tensor argument of `n` is laid out differently in the new graph
/// (a decomposition upstream made other strides): then `n`'s own strides are
/// recomputed, as torch's retrace recomputes them.
bool inputs_relaid(const ir::Node* n, const std::vector<ir::Argument>& mapped) {
  for (size_t i = 0; i < n->args().size() && i < mapped.size(); ++i) {
    const ir::Node* before = n->args()[i].node();
    const ir::Node* after = mapped[i].node();
    if (!before || !after) continue;
    const ir::TensorMeta* a = before->value.tensor();
    const ir::TensorMeta* b = after->value.tensor();
    if (a && b && !(a->strides == b->strides)) return true;
  }
  return false;
}

/// Ops whose value torch's retrace lays out anew whatever the program
/// recorded: the export traced scaled_dot_product_attention for training
/// (the math kernel's contiguous output when its mask needs a gradient),
/// the retrace for inference (the flash path: empty_like(query), or the math
/// kernel's contiguous output; attention_output_strides in tensor_layout.h).
bool laid_out_by_retrace(const ir::Target& t) {
  return t.is_torch_op() && t.op_name() == "scaled_dot_product_attention";
}

/// The retrace passes arguments the schema lists positionally as positional
/// (torch's normalization); the ops exported graphs pass by keyword.
void normalize_positional(const ir::Target& t, std::vector<ir::Argument>& args, std::vector<ir::NamedArgument>& kwargs) {
  static const std::map<std::string, std::vector<std::string>, std::less<>> positional = {
      {"torch.ops.aten._assert_tensor_metadata.default", {"a", "size", "stride", "dtype"}},
  };
  auto it = positional.find(t.qualified());
  if (it == positional.end()) return;
  const auto& names = it->second;
  size_t last = args.size();
  for (size_t i = args.size(); i < names.size(); ++i)
    for (const auto& kw : kwargs)
      if (kw.name == names[i]) last = i + 1;
  for (size_t i = args.size(); i < last; ++i) {
    auto kw = std::find_if(kwargs.begin(), kwargs.end(), [&](const auto& k) { return k.name == names[i]; });
    if (kw == kwargs.end()) {
      args.push_back(ir::None{});
    } else {
      args.push_back(kw->value);
      kwargs.erase(kw);
    }
  }
}

/// The retrace passes cond's operands and scan's additional inputs as tuples
/// (the HOPs' Python wrappers build them so); map_impl and while_loop keep
/// the lists they were given (a .pt2 writes every operand sequence as a list).
void operands_as_tuples(const ir::Target& t, std::vector<ir::Argument>& args) {
  if (!t.is_higher_order() || args.size() < 4) return;
  const std::string name = t.op_name();
  if (name != "cond" && name != "scan") return;
  if (auto* l = std::get_if<ir::ArgumentList>(&args[3].v)) l->is_tuple = true;
}

/// What torch's retrace records for the nodes of an inlined wrapper body: the
/// frame of the body's generated code (gm.code, "<eval_with_key>.N", line and
/// statement; N is torch's per-process module counter, 0 here) and the
/// annotation of the dynamo-disabled call that runs it.
std::map<const ir::Node*, ir::NodeMetadata> inlined_traces(const ir::GraphModule& body) {
  ir::PrintOptions code;
  code.include_stack_comments = false;
  code.type_annotations = false;
  const ir::PrintedText text = ir::generate_forward(body.graph, code);
  std::vector<std::string> lines;
  for (size_t at = 0; at <= text.text.size();) {
    const size_t eol = text.text.find('\n', at);
    lines.push_back(text.text.substr(at, eol == std::string::npos ? std::string::npos : eol - at));
    if (eol == std::string::npos) break;
    at = eol + 1;
  }
  std::map<const ir::Node*, ir::NodeMetadata> out;
  for (const auto& [node, span] : text.node_lines) {
    if (node->op != ir::OpKind::CallFunction || span.first < 0 || size_t(span.first) >= lines.size()) continue;
    std::string statement = lines[size_t(span.first)];
    statement.erase(0, statement.find_first_not_of(' '));
    ir::NodeMetadata m;
    // gm.code starts with three blank lines: the def is line 4, its first statement line 5.
    m.stack_trace = "File \"<eval_with_key>.0\", line " + std::to_string(span.first + 4) + ", in forward\n    " +
                    statement + "\n";
    m.custom["custom"] =
        R"({"_torchdynamo_disable": true, "_torchdynamo_disable_recursive": true, "_torchdynamo_disable_method": "wrapper"})";
    out.emplace(node, std::move(m));
  }
  return out;
}

/// Attribute names of the subgraphs that lowering inlines into `gm`.
std::set<std::string> inlined_subgraphs(const ir::GraphModule& gm) {
  std::set<std::string> out;
  for (const ir::Node* n : gm.graph.nodes())
    if (n->op == ir::OpKind::CallFunction)
      if (auto body = ir::wrapper_body_argument(n->target); body && *body < n->args().size())
        if (const ir::Node* g = n->args()[*body].node(); g && g->op == ir::OpKind::GetAttr) out.insert(g->attr);
  return out;
}

/// dropout_(input, p, train) with train false (or p 0): the composite returns
/// input itself (only the out-of-place dropout clones).
bool is_inference_dropout_(const std::string& key, const std::vector<ir::Argument>& args) {
  if (key != "aten.dropout_.default" && key != "aten.feature_dropout_.default" && key != "aten.alpha_dropout_.default")
    return false;
  if (args.size() < 3 || !args[0].node()) return false;
  const auto* train = std::get_if<bool>(&args[2].v);
  const auto* p = std::get_if<double>(&args[1].v);
  return (train && !*train) || (p && *p == 0.0);
}

class Lowering {
 public:
  Lowering(const DecompositionTable& table, const Hints& hints, const ir::OpSignatureMap& file_signatures,
           LoweringReport& report, const Progress& progress)
      : table_(table), hints_(hints), file_signatures_(file_signatures), report_(report), progress_(progress) {}

  /// Lowers one graph module (subgraphs recursively). `signature`: the
  /// program's, for the top-level graph (mutations become outputs there).
  std::shared_ptr<ir::GraphModule> lower(const ir::GraphModule& gm, const ir::GraphSignature* signature,
                                         ir::GraphSignature* new_signature) {
    auto out = std::make_shared<ir::GraphModule>();
    const std::set<std::string> inlined = inlined_subgraphs(gm);
    for (const auto& [name, sub] : gm.submodules)
      if (!inlined.count(name)) out->submodules.emplace_back(name, lower(*sub, nullptr, nullptr));
    Rewriter b(out->graph, table_, hints_, table_.name());
    b.use_schema_effects(ir::with_file_signatures(ir::schema_effects(), file_signatures_));
    Functionalizer f(b);
    b.set_mutation_handler([&](ir::Node* target, ir::Node* value) { f.assign_new(target, value); });
    current_ = &gm;
    // The top-level inputs in the order torch's retrace lifts them (retrace_input_order.h).
    const std::vector<ir::Node*> placeholders = gm.graph.placeholders();
    const std::vector<size_t> order = input_order(signature, placeholders.size());
    for (size_t i : order) f.bind(placeholders[i], b.add_placeholder(*placeholders[i]));
    const ir::Node* output = nullptr;
    const std::vector<ir::Node*> nodes = gm.graph.nodes();
    for (const ir::Node* n : nodes) {
      // Between nodes: the top level reports how far it is; a subgraph only stops when asked to.
      if (signature) progress_.at(n->index(), int(nodes.size()));
      else if (progress_.cancel) progress_.cancel->check();
      switch (n->op) {
        case ir::OpKind::Placeholder: break;
        case ir::OpKind::GetAttr:
          if (!inlined.count(n->attr)) f.bind(n, b.add_get_attr(*n));
          break;
        case ir::OpKind::Output: output = n; break;
        case ir::OpKind::CallFunction: lower_call(b, f, n); break;
      }
    }
    if (!output) throw DecompositionError("the graph has no output node");
    finish(b, f, gm, *output, signature, new_signature);
    for (auto& w : b.warnings()) report_.warnings.push_back(w);
    report_.rules_applied += b.rules_applied();
    report_.dead_nodes_removed += b.commit();
    return out;
  }

 private:
  void lower_call(Rewriter& b, Functionalizer& f, const ir::Node* n) {
    b.set_origin(n);
    if (n->target.is_getitem()) {
      lower_getitem(b, f, n);
      return;
    }
    if (auto body = ir::wrapper_body_argument(n->target)) {
      lower_inline(b, f, n, *body);
      return;
    }
    if (const ir::OpSignature* schema = custom_op_schema(n->target); schema && schema->writes_an_argument()) {
      lower_auto_functionalized(b, f, n, *schema);
      return;
    }
    std::vector<ir::Argument> args;
    for (const auto& a : n->args()) args.push_back(f.map(a));
    std::vector<ir::NamedArgument> kwargs;
    for (const auto& kw : n->kwargs()) kwargs.push_back({kw.name, f.map(kw.value)});
    const std::string key = op_key(n->target);
    if (autocast_ && n->target.is_torch_op() && casts_to_lower_precision(autocast_->device, ir::op_packet_key(n->target)))
      cast_operands(b, args, kwargs, autocast_->dtype);

    if (n->target.is_torch_op()) {
      if (is_inference_dropout_(key, args)) {  // at::native::dropout_: a no-op when not training
        f.bind(n, args[0]);
        f.note_alias(n, n->args()[0].node());
        return;
      }
      if (key == "aten.detach_.default" && !args.empty() && args[0].node()) {
        // Functionalization drops detach_ (it only changes autograd metadata):
        // torch's lowering has no node for it (a lifted constant's
        // lift_fresh_copy + detach_ becomes one clone); the tensor no longer requires grad.
        f.bind(n, args[0]);
        f.note_alias(n, n->args()[0].node());
        b.autograd().set(args[0].node(), false);
        return;
      }
      if (auto functional = functional_variant(key)) {
        lower_inplace(b, f, n, *functional, std::move(args), std::move(kwargs));
        return;
      }
      if (b.decomposes(key)) {
        ir::Argument result = b.call(key, std::move(args), std::move(kwargs));
        b.adopt_value(result, n->value);
        f.bind(n, result);
        if (find_view_op(n->target)) f.note_view(n);
        return;
      }
    }
    const bool relaid = inputs_relaid(n, args) || laid_out_by_retrace(n->target);
    operands_as_tuples(n->target, args);
    normalize_positional(n->target, args, kwargs);
    ir::Argument result = b.emit(n->target, std::move(args), std::move(kwargs), &n->value, relaid);
    const ViewOp* view = find_view_op(n->target);
    if (view && view->detached && result.node()) {
      // As autograd hands it out in torch's retrace: detached (Core ATen: alias).
      ir::Node* detached = b.call1("aten.detach.default", {result});
      f.note_detached_view(n, result.node(), detached);
      return;
    }
    f.bind(n, result);
    if (view) f.note_view(n);
  }

  /// The schema the file recorded for a custom op (serde/recorded_op_schemas.h):
  /// LibTorch's own ops have their functional forms (functional_variant).
  const ir::OpSignature* custom_op_schema(const ir::Target& t) const {
    if (!t.is_torch_op() || t.op_namespace() == "aten" || t.op_namespace() == "prims") return nullptr;
    auto it = file_signatures_.find(t.schema_name());
    return it == file_signatures_.end() ? nullptr : &it->second;
  }

  /// Inside an autocast region, an op of the lower-precision list gets its
  /// floating operands (not float64) cast to the region's dtype first, as the
  /// autocast kernel's cached_cast does: C++ evaluates its argument pack from
  /// the last argument to the first, so the casts come in that order.
  static void cast_operands(Rewriter& b, std::vector<ir::Argument>& args, std::vector<ir::NamedArgument>& kwargs,
                            ir::ScalarType to) {
    auto cast = [&](ir::Argument& a) {
      ir::Node* t = a.node();
      const ir::TensorMeta* m = t ? t->value.tensor() : nullptr;
      if (!m || !ir::is_floating(m->dtype) || m->dtype == ir::ScalarType::Double || m->dtype == to) return;
      a = b.call1("aten._to_copy.default", {a}, {{"dtype", to}});
    };
    for (auto it = kwargs.rbegin(); it != kwargs.rend(); ++it) cast(it->value);
    for (auto it = args.rbegin(); it != args.rend(); ++it) cast(*it);
  }

  /// A wrapper HOP's body, lowered in place: its placeholders stand for the
  /// operands, its calls join this graph (named in this graph's namespace,
  /// as torch's retrace inlines them), and the HOP's value is the tuple of
  /// the body's outputs. The grad-mode / autocast context is dropped, as torch
  /// drops it (the lowered program is an inference graph), once its effect
  /// (requires_grad, autocast's casts) is in the lowered calls.
  void lower_inline(Rewriter& b, Functionalizer& f, const ir::Node* n, size_t body_at) {
    const ir::GraphModule* body = current_ ? ir::wrapper_body(*n, *current_) : nullptr;
    if (!body) throw DecompositionError("'" + n->name + "' (" + n->target.qualified() + ") names no subgraph");
    const auto traces = inlined_traces(*body);
    size_t operand = body_at + 1;
    const ir::Node* output = nullptr;
    {
      // The body runs in its grad mode (the retrace runs the HOP's set_grad_enabled)
      // or its autocast region (the retrace runs the ops under torch.autocast);
      // the state is the outer graph's again when the body is done.
      SaveAndRestore<const ir::GraphModule*> graph(current_, body);
      SaveAndRestore<bool> grad(b.autograd().grad_mode());
      SaveAndRestore<std::optional<AutocastRegion>> region(autocast_);
      SaveAndRestore<Rewriter::Scope> scope(b.scope());
      if (n->target.op_name() == "wrap_with_set_grad_enabled" && !n->args().empty())
        if (const bool* on = std::get_if<bool>(&n->args()[0].v)) b.autograd().grad_mode() = *on;
      if (n->target.op_name() == "wrap_with_autocast" && n->args().size() > 2) {
        const auto* device = std::get_if<std::string>(&n->args()[0].v);
        const auto* dtype = std::get_if<ir::ScalarType>(&n->args()[1].v);
        const auto* enabled = std::get_if<bool>(&n->args()[2].v);
        autocast_ = autocast_region(device ? *device : "cpu", dtype ? std::optional(*dtype) : std::nullopt,
                                    enabled && *enabled);
      }
      for (const ir::Node* m : body->graph.nodes()) {
        switch (m->op) {
          case ir::OpKind::Placeholder:
            if (operand >= n->args().size())
              throw DecompositionError("'" + n->name + "': its body takes more operands than it is given");
            f.bind(m, f.map(n->args()[operand++]));
            break;
          case ir::OpKind::GetAttr: f.bind(m, b.add_get_attr(*m)); break;
          case ir::OpKind::Output: output = m; break;
          case ir::OpKind::CallFunction: {
            auto trace = traces.find(m);
            b.scope().trace_override = trace == traces.end() ? nullptr : &trace->second;
            lower_call(b, f, m);
            break;
          }
        }
      }
    }
    if (!output || output->args().empty()) throw DecompositionError("'" + n->name + "': its body has no output");
    ir::ArgumentList values{{}, true};
    if (const ir::ArgumentList* l = output->args()[0].list()) {
      for (const auto& item : l->items) values.items.push_back(f.map(item));
    } else {
      values.items.push_back(f.map(output->args()[0]));
    }
    f.bind(n, values);
  }

  /// op_(self, ...): the functional op, whose result is self's new value.
  void lower_inplace(Rewriter& b, Functionalizer& f, const ir::Node* n, const std::string& functional,
                     std::vector<ir::Argument> args, std::vector<ir::NamedArgument> kwargs) {
    if (functional == "aten._native_batch_norm_legit_functional.default") {
      lower_batch_norm_legit(b, f, n, std::move(args), std::move(kwargs));
      return;
    }
    const ir::Node* self = n->args().empty() ? nullptr : n->args()[0].node();
    if (!self) throw DecompositionError(op_key(n->target) + " ('" + n->name + "') mutates no tensor");
    ir::Argument result = b.call(functional, std::move(args), std::move(kwargs));
    b.adopt_value(result, n->value);
    f.assign(self, result);
    f.note_alias(n, self);  // the op returns its (now updated) self
    f.bind(n, result);
  }

  /// _native_batch_norm_legit(input, w, b, running_mean, running_var, training, momentum, eps)
  /// writes the running statistics: the functional form returns them as outputs 3 and 4.
  void lower_batch_norm_legit(Rewriter& b, Functionalizer& f, const ir::Node* n, std::vector<ir::Argument> args,
                              std::vector<ir::NamedArgument> kwargs) {
    const auto outs = b.call_n("aten._native_batch_norm_legit_functional.default", std::move(args), std::move(kwargs));
    if (outs.size() != 5) throw DecompositionError("_native_batch_norm_legit_functional: expected 5 outputs");
    for (size_t i : {3, 4})  // running_mean, running_var
      if (i < n->args().size() && n->args()[i].node()) f.assign(n->args()[i].node(), outs[i]);
    f.bind(n, ir::ArgumentList{{outs[0], outs[1], outs[2]}, true});
  }

  void lower_getitem(Rewriter& b, Functionalizer& f, const ir::Node* n) {
    const ir::Node* parent = n->args().empty() ? nullptr : n->args()[0].node();
    const auto* index = n->args().size() > 1 ? std::get_if<int64_t>(&n->args()[1].v) : nullptr;
    if (parent && index) {
      ir::Argument value = f.value_of(parent);
      if (const ir::ArgumentList* l = value.list(); l && *index >= 0 && size_t(*index) < l->items.size()) {
        f.bind(n, l->items[*index]);
        note_view_output(f, n, parent, *index);
        return;
      }
    }
    std::vector<ir::Argument> args;
    for (const auto& a : n->args()) args.push_back(f.map(a));
    f.bind(n, b.emit(n->target, std::move(args), {}, &n->value));
    if (parent && index) note_view_output(f, n, parent, *index);
  }

  /// An output of split / unbind / ... is a view of the op's input (a mutation through it writes back there).
  static void note_view_output(Functionalizer& f, const ir::Node* n, const ir::Node* parent, int64_t index) {
    if (parent->op == ir::OpKind::CallFunction && find_multi_output_view_op(parent->target))
      f.note_view_output(n, parent, index);
  }

  void finish(Rewriter& b, Functionalizer& f, const ir::GraphModule& gm, const ir::Node& output,
              const ir::GraphSignature* signature, ir::GraphSignature* new_signature) {
    b.set_origin(&output);
    f.regenerate_in_current_op();
    ir::ArgumentList returned{{}, true};
    std::vector<ir::OutputSpec> specs;
    const auto mutated = f.mutated_inputs(gm.graph.placeholders());
    for (const auto& [input, value] : mutated) {
      if (!signature) throw DecompositionError("a subgraph mutates its input '" + input->name + "'");
      specs.push_back(mutation_output(*signature, *input, *value));
      returned.items.push_back(value);
    }
    report_.mutated_inputs += int(mutated.size());
    const ir::Argument original = output.args().empty() ? ir::Argument(ir::ArgumentList{{}, true}) : output.args()[0];
    const ir::ArgumentList* list = original.list();
    const bool single = !list;
    std::vector<ir::Argument> items = single ? std::vector<ir::Argument>{original} : list->items;
    for (size_t i = 0; i < items.size(); ++i) {
      ir::Argument v = f.map(items[i]);
      returned.items.push_back(v);
      if (signature && i < signature->outputs.size()) {
        ir::OutputSpec spec = signature->outputs[i];
        if (const ir::Node* node = v.node()) spec.arg.name = node->name;
        specs.push_back(std::move(spec));
      }
    }
    if (single && mutated.empty()) b.add_output(returned.items[0]);
    else b.add_output(returned);
    if (new_signature) {
      new_signature->inputs.clear();
      for (size_t i : input_order(signature, signature->inputs.size())) {
        ir::InputSpec in = signature->inputs[i];
        // torch's retrace registered the constant as a buffer and turns it back
        // into a constant without persistence (_override_graph_signature_for_temp_registered_constants).
        if (in.kind == ir::InputKind::ConstantTensor) in.persistent.reset();
        new_signature->inputs.push_back(std::move(in));
      }
      new_signature->outputs = std::move(specs);
    }
  }

  /// The retrace's order of the top-level inputs (`signature` given), else the graph's.
  static std::vector<size_t> input_order(const ir::GraphSignature* signature, size_t count) {
    if (signature && signature->inputs.size() == count) return retrace_input_order(*signature);
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i) order[i] = i;
    return order;
  }

  static ir::OutputSpec mutation_output(const ir::GraphSignature& signature, const ir::Node& input,
                                        const ir::Node& value) {
    const ir::InputSpec* in = signature.input_named(input.name);
    if (!in) throw DecompositionError("the program mutates '" + input.name + "', which its signature does not list");
    ir::OutputSpec out;
    out.arg.type = ir::SpecArgument::Type::Tensor;
    out.arg.name = value.name;
    switch (in->kind) {
      case ir::InputKind::Buffer:
        out.kind = ir::OutputKind::BufferMutation;
        out.target = in->target;
        break;
      case ir::InputKind::UserInput:
        out.kind = ir::OutputKind::UserInputMutation;
        out.target = input.name;
        break;
      case ir::InputKind::Parameter:
        out.kind = ir::OutputKind::ParameterMutation;
        out.target = in->target;
        break;
      case ir::InputKind::ConstantTensor:
        throw DecompositionError("Constant " + in->target.value_or(input.name) +
                                 " is mutated in the forward method. Pls register it as buffer");
      default: throw DecompositionError("the program mutates '" + input.name + "', an input that cannot change");
    }
    return out;
  }

  const DecompositionTable& table_;
  const Hints& hints_;
  const ir::OpSignatureMap& file_signatures_;
  LoweringReport& report_;
  const Progress& progress_;
  const ir::GraphModule* current_ = nullptr;  // the graph module whose nodes are being lowered
  std::optional<AutocastRegion> autocast_;     // the autocast region being lowered, if any
};

}  // namespace

ir::ExportedProgram run_decompositions(const ir::ExportedProgram& ep, const DecompositionTable& table,
                                       LoweringReport* report, const Progress& progress) {
  LoweringReport local;
  LoweringReport& r = report ? *report : local;
  r.table = table.name();
  const Hints hints = program_hints(ep.graph_module);
  Lowering lowering(table, hints, ep.file_signatures, r, progress);

  ir::ExportedProgram out;
  ir::GraphSignature signature;
  auto gm = lowering.lower(ep.graph_module, &ep.signature, &signature);
  out.graph_module.graph = std::move(gm->graph);
  out.graph_module.submodules = std::move(gm->submodules);
  out.signature = std::move(signature);
  out.name = ep.name;
  out.state_dict = ep.state_dict;
  out.constants = ep.constants;
  out.range_constraints = ep.range_constraints;
  out.module_call_graph = ep.module_call_graph;
  // torch's run_decompositions() makes a program of the ATen dialect at
  // either level (ExportedProgram's default Verifier): torch.export.save
  // writes verifiers ["ATEN"], where the exported program says TRAINING.
  out.verifiers = {"ATEN"};
  out.guards_code = ep.guards_code;
  out.schema_major = ep.schema_major;
  out.schema_minor = ep.schema_minor;
  out.torch_version = ep.torch_version;
  out.example_inputs = ep.example_inputs;      // the same inputs run the lowered program
  out.file_signatures = ep.file_signatures;    // for writing it back (ops this process lacks)
  out.recorded_op_schemas = ep.recorded_op_schemas;
  return out;
}

}  // namespace exportlens::passes

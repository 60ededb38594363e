// export_module / export_function / export_model: one trace from example
// inputs and a spec to an ExportedProgram, following torch.export's steps:
// bind the spec (symbols per input dim), lift parameters and buffers, run the
// model on fakes with every op recorded, then insert the runtime asserts of
// data-dependent values, drop dead code, check the spec's constraints
// (violations and suggested fixes), and compute the range constraints.
#include "engine/trace/export.h"

#include <c10/util/Exception.h>
#include <torch/nn/module.h>
#include <torch/version.h>

#include <chrono>
#include <set>

#include "engine/ir/purity.h"
#include "engine/ir/verifier.h"
#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/export_constraints.h"
#include "engine/symbolic/python_printer.h"
#include "engine/symbolic/spec_binding.h"
#include "engine/runtime/op_signatures.h"
#include "engine/runtime/torch_types.h"
#include "engine/trace/program_io.h"
#include "engine/trace/program_state.h"
#include "engine/trace/sdk/exportlens_sdk.h"
#include "engine/trace/sdk_bridge.h"
#include "engine/trace/sym_node.h"
#include "engine/trace/trace_errors.h"

namespace exportlens::trace {

using symbolic::Expr;

namespace {

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

std::string underscored(const std::string& path) {
  std::string s = path;
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

std::string parent_path(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

ir::ValueRange ir_range(const symbolic::ValueRange& r) {
  auto bound = [](const symbolic::Num& n) {
    return n.is_infinite() ? Expr::infinity(n.infinity < 0) : Expr(n.value);
  };
  return {bound(r.lower), bound(r.upper)};
}

class Exporter {
 public:
  Exporter(torch::nn::Module* module, const ForwardFn& forward, const std::vector<std::string>& arg_names,
           const std::vector<c10::IValue>& inputs, const std::string& spec_text, const ExportOptions& options)
      : module_(module),
        forward_(forward),
        arg_names_(arg_names),
        inputs_(inputs),
        spec_text_(spec_text),
        options_(options),
        tracer_(TraceOptions{options.strict, options.locations}, program_.graph_module) {}

  ExportResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    result_.report.spec_text = spec_text_;
    tracer_.env().set_logging(options_.log);
    try {
      trace();
      finish();
      if (result_.report.status == ops::SolveStatus::Ok) result_.program = std::move(program_);
    } catch (const TraceError& e) {
      fail(ops::SolveStatus::Error, e.failure(), e.torch_type(), e.what());
    } catch (const symbolic::SpecError& e) {
      fail(ops::SolveStatus::Error, "spec", "torch._dynamo.exc.UserError", e.what());
    } catch (const symbolic::ConstraintViolationError& e) {
      fail(ops::SolveStatus::Violation, "constraint", "torch.fx.experimental.symbolic_shapes.ConstraintViolationError",
           e.what());
    } catch (const symbolic::DataDependentError& e) {
      fail(ops::SolveStatus::Error, "data_dependent", "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode",
           e.what());
    } catch (const symbolic::CheckFailedError& e) {
      fail(ops::SolveStatus::Error, "check", "RuntimeError", e.what());
    } catch (const c10::Error& e) {
      fail(ops::SolveStatus::Error, "user_code", "RuntimeError", e.what_without_backtrace());
    } catch (const std::exception& e) {
      fail(ops::SolveStatus::Error, "user_code", "RuntimeError", e.what());
    }
    report_env();
    result_.specializations = tracer_.specializations();
    result_.trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    result_.report.solve_ms = result_.trace_ms;
    return std::move(result_);
  }

 private:
  void fail(ops::SolveStatus status, std::string kind, std::string type, std::string message) {
    result_.report.status = status;
    result_.report.error_kind = std::move(kind);
    result_.report.message = std::move(message);
    result_.error_type = std::move(type);
  }

  // ---- tracing -----------------------------------------------------------------------

  void trace() {
    install_capture_kernels();
    tracer_hooks_table();
    spec_ = blank(spec_text_) ? symbolic::DynamicShapesSpec{} : symbolic::parse_dynamic_shapes(spec_text_);
    result_.report.spec_text = symbolic::print_dynamic_shapes(spec_);
    bind_inputs();
    lift_state();
    std::vector<c10::IValue> traced_inputs = make_user_placeholders();
    c10::IValue out;
    {
      Tracer::Activation activation(tracer_);
      out = forward_(traced_inputs);
    }
    tracer_.rethrow_pending_error();
    Tracer::Internal internal(tracer_);
    ir::ArgumentList outputs{{}, true};
    out_spec_ = ir::treespec_dumps(pytree_of(out));
    flatten_output(out, outputs);
    tracer_.graph().output(outputs);
  }

  void bind_inputs() {
    if (arg_names_.size() != inputs_.size())
      throw TraceError("user_code", "RuntimeError",
                       "the model has " + std::to_string(arg_names_.size()) + " argument names but " +
                           std::to_string(inputs_.size()) + " example inputs");
    for (size_t i = 0; i < inputs_.size(); ++i) {
      symbolic::ExampleInput in;
      in.name = arg_names_[i];
      in.is_tensor = inputs_[i].isTensor();
      if (in.is_tensor) in.sizes = inputs_[i].toTensor().sizes().vec();
      else if (!inputs_[i].isInt() && !inputs_[i].isBool() && !inputs_[i].isDouble() && !inputs_[i].isNone())
        throw TraceError("unsupported", "RuntimeError",
                         "input '" + in.name + "' is a " + inputs_[i].tagKind() +
                             ": the C++ tracer takes tensors, ints, bools and floats as forward() arguments");
      examples_.push_back(std::move(in));
    }
    binding_ = symbolic::bind_spec(tracer_.env(), spec_, examples_);
  }

  void lift_state() {
    if (!module_) return;
    std::unordered_map<const void*, std::pair<std::string, std::string>> paths;
    for (const auto& item : module_->named_modules()) paths[item.value().get()] = {item.key(), item.value()->name()};
    tracer_.set_module_paths(std::move(paths), module_->name());
    for (const auto& p : module_->named_parameters()) add_state(p.key(), p.value(), ir::InputKind::Parameter, "p_");
    for (const auto& b : module_->named_buffers()) add_state(b.key(), b.value(), ir::InputKind::Buffer, "b_");
  }

  void add_state(const std::string& name, const at::Tensor& t, ir::InputKind kind, const char* prefix) {
    ops::SymTensor sym = static_sym(t);
    ir::Node* n = tracer_.graph().placeholder(prefix + underscored(name), ops::SymValue::of(sym), true);
    tracer_.add_state(t, n, parent_path(name));
    ir::InputSpec spec;
    spec.kind = kind;
    spec.arg.name = n->name;
    spec.target = name;
    if (kind == ir::InputKind::Buffer) spec.persistent = true;
    input_specs_[n] = spec;
    state_.push_back({name, t, kind == ir::InputKind::Parameter});
  }

  static ops::SymTensor static_sym(const at::Tensor& t) {
    ops::SymTensor sym;
    sym.dtype = runtime::from_torch(t.scalar_type());
    for (int64_t s : t.sizes()) sym.sizes.emplace_back(s);
    return sym;
  }

  std::vector<c10::IValue> make_user_placeholders() {
    std::vector<c10::IValue> out;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const c10::IValue& v = inputs_[i];
      ir::InputSpec spec;
      spec.kind = ir::InputKind::UserInput;
      if (v.isTensor()) {
        ops::SymTensor sym = static_sym(v.toTensor());
        sym.sizes.clear();
        for (const auto& d : binding_->dims_of(i)) sym.sizes.push_back(d.expr);
        ir::Node* n = tracer_.graph().placeholder(arg_names_[i], ops::SymValue::of(sym), false);
        tracer_.define_input_dims(n, sym.sizes);
        spec.arg.name = n->name;
        input_specs_[n] = spec;
        user_inputs_.push_back(n);
        out.push_back(tracer_.make_fake(n, sym));
      } else {
        // Non-tensor inputs are constants of the program (torch specializes them too).
        ir::Node* n = tracer_.graph().placeholder(arg_names_[i], constant_value(v), false);
        spec.arg.type = ir::SpecArgument::Type::Constant;
        spec.arg.name = n->name;
        spec.arg.constant = constant_argument(v);
        input_specs_[n] = spec;
        user_inputs_.push_back(n);
        out.push_back(v);
      }
    }
    return out;
  }

  static ops::SymValue constant_value(const c10::IValue& v) {
    if (v.isInt()) return ops::SymValue::of_int(Expr(v.toInt()));
    if (v.isBool()) return ops::SymValue::of_bool(Expr::boolean(v.toBool()));
    if (v.isDouble()) return ops::SymValue::of_float(v.toDouble());
    return ops::SymValue::none();
  }

  static ir::Argument constant_argument(const c10::IValue& v) {
    if (v.isInt()) return v.toInt();
    if (v.isBool()) return v.toBool();
    if (v.isDouble()) return v.toDouble();
    return ir::None{};
  }

  /// Outputs as torch flattens them (pytree leaves, in order).
  void flatten_output(const c10::IValue& v, ir::ArgumentList& out) {
    ir::OutputSpec spec;
    spec.kind = ir::OutputKind::UserOutput;
    if (v.isTensor()) {
      ir::Node* n = tracer_.node_for(v.toTensor());
      if (!n) throw TraceError("unsupported", "RuntimeError", "the model returned an undefined tensor");
      out.items.push_back(n);
      spec.arg.name = n->name;
    } else if (v.isSymInt() && v.toSymInt().is_heap_allocated()) {
      ir::Argument a = tracer_.argument_for(v.toSymInt());
      out.items.push_back(a);
      spec.arg.type = ir::SpecArgument::Type::SymInt;
      if (ir::Node* n = a.node()) spec.arg.name = n->name;
    } else if (v.isTuple()) {
      for (const auto& item : v.toTupleRef().elements()) flatten_output(item, out);
      return;
    } else if (v.isList()) {
      for (const auto& item : v.toListRef()) flatten_output(item, out);
      return;
    } else if (v.isGenericDict()) {
      for (const auto& item : v.toGenericDict()) flatten_output(item.value(), out);
      return;
    } else {
      ir::Argument c = v.isSymInt() ? ir::Argument(v.toSymInt().as_int_unchecked()) : constant_argument(v);
      out.items.push_back(c);
      spec.arg.type = ir::SpecArgument::Type::Constant;
      spec.arg.constant = c;
    }
    output_specs_.push_back(spec);
  }

  // ---- finishing ---------------------------------------------------------------------

  void finish() {
    Tracer::Internal internal(tracer_);
    insert_runtime_asserts();
    ir::eliminate_dead_code(program_.graph_module, runtime::dispatcher_schema_effects());
    std::vector<Expr> unbacked;
    for (const auto& [sym, node] : tracer_.unbacked_definitions()) unbacked.push_back(sym);

    const symbolic::ConstraintReport report = symbolic::check_constraints(tracer_.env(), *binding_, spec_);
    if (report.failed()) {
      fail(ops::SolveStatus::Violation, "constraint", "torch._dynamo.exc.UserError", report.message);
      ops::record_violations(result_.report, report, spec_);
      return;
    }
    const auto ranges = symbolic::compute_range_constraints(tracer_.env(), *binding_, unbacked);
    for (const auto& r : ranges.entries) {
      program_.range_constraints.entries.emplace_back(r.expr, ir_range(r.range));
      result_.report.range_constraints.push_back({r.expr.str(), r.range.lower.str(), r.range.upper.str()});
    }
    if (!ranges.conflicts.empty()) {
      std::string msg = "Found the following conflicts between user-specified ranges and inferred ranges from model "
                        "tracing:";
      for (const auto& c : ranges.conflicts) msg += "\n" + c;
      fail(ops::SolveStatus::Violation, "range_conflict", "torch._dynamo.exc.UserError", msg);
      return;
    }
    finalize_values(program_.graph_module);
    build_signature();
    fill_state(program_, state_, tracer_.constants());
    program_.module_call_graph.push_back(
        {"", true, arg_names_, ir::treespec_dumps(ir::PyTreeSpec::positional_args(inputs_.size())), out_spec_});
    program_.example_inputs = pickled_example_inputs(inputs_);
    program_.verifiers = {"TRAINING"};
    program_.torch_version = std::string("exportlens C++ tracer, LibTorch ") + TORCH_VERSION;
    const symbolic::SymbolName name_of = [this](const Expr& s) { return source_name(s); };
    // guards_code holds what can be checked on the inputs: guards over a
    // phantom root (a derived Dim's root no input has) are left out, as torch does.
    for (const auto& g : tracer_.env().guards()) {
      bool over_inputs = true;
      for (const std::string& s : g.expr.free_symbols())
        if (const auto* rec = tracer_.env().find_symbol(s); rec && rec->phantom) over_inputs = false;
      if (over_inputs) program_.guards_code.push_back(symbolic::to_python(g.expr, name_of));
    }
    for (const auto& f : ir::verify(program_))
      result_.report.diagnostics.push_back({"", "", "verifier: " + f.str()});
  }

  /// torch's insert_deferred_runtime_asserts: after each data-dependent
  /// value, assert its range, then the checks recorded on it.
  void insert_runtime_asserts() {
    std::set<std::string> emitted;
    const auto& ras = tracer_.env().runtime_asserts();
    std::vector<bool> placed(ras.size(), false);
    std::set<std::string> defined;
    for (const auto& [sym, def] : tracer_.unbacked_definitions()) {
      defined.insert(sym.symbol_name());
      ir::Node* anchor = def;
      auto emit = [&](const Expr& condition) {
        const std::string text = condition.str();
        if (!emitted.insert(text).second) return;
        ir::Node* rel = tracer_.materialize(condition, anchor).node();
        if (!rel) return;  // statically known
        ir::Node* a = tracer_.graph().call_after(rel, ir::Target("torch.ops.aten._assert_scalar.default"),
                                                 "_assert_scalar_default",
                                                 {rel, "Runtime assertion failed for expression " + text +
                                                           " on node '" + rel->name + "'"});
        anchor = a;
      };
      const symbolic::SymbolRecord* rec = tracer_.env().find_symbol(sym.symbol_name());
      const bool is_bool_value = rec && rec->range.lower == symbolic::Num::integer(0) &&
                                 rec->range.upper == symbolic::Num::integer(1);
      if (rec && !is_bool_value && tracer_.env().replace(sym) == sym) {
        if (!rec->range.lower.is_infinite()) emit(Expr::ge(sym, Expr(rec->range.lower.value)));
        if (!rec->range.upper.is_infinite()) emit(Expr::le(sym, Expr(rec->range.upper.value)));
      }
      for (size_t i = 0; i < ras.size(); ++i) {
        if (placed[i]) continue;
        bool ready = true;
        for (const auto& s : ras[i].expr.free_symbols())
          ready = ready && (defined.count(s) || !tracer_.env().is_unbacked(Expr::symbol(s)));
        if (!ready) continue;
        placed[i] = true;
        emit(ras[i].expr);
      }
    }
  }

  ir::ValueInfo value_info(const ops::SymValue& v) const {
    const auto& env = tracer_.env();
    auto sym_int = [&](const Expr& e) {
      const Expr r = env.replace(e);
      return ir::SymInt(r, env.hint(r));
    };
    switch (v.kind) {
      case ops::SymValue::Kind::Tensor: {
        ir::TensorMeta m;
        m.dtype = v.tensor.dtype;
        m.device = v.tensor.device;
        std::vector<Expr> sizes;
        for (const auto& s : v.tensor.sizes) sizes.push_back(env.replace(s));
        for (const auto& s : sizes) m.sizes.push_back(ir::SymInt(s, env.hint(s)));
        Expr stride(1);
        m.strides.resize(sizes.size());
        for (size_t i = sizes.size(); i-- > 0;) {
          m.strides[i] = ir::SymInt(stride, env.hint(stride));
          stride = env.replace(stride * sizes[i]);
        }
        return ir::ValueInfo::of(std::move(m));
      }
      case ops::SymValue::Kind::Int: return ir::ValueInfo::of(sym_int(v.scalar));
      case ops::SymValue::Kind::Bool: {
        const Expr r = env.replace(v.scalar);
        std::optional<bool> hint;
        if (auto h = env.hint(r)) hint = *h != 0;
        return ir::ValueInfo{ir::SymBool{r, hint}};
      }
      case ops::SymValue::Kind::Float: return ir::ValueInfo{ir::SymFloat{std::to_string(v.number), v.number}};
      case ops::SymValue::Kind::List: {
        ir::ValueTuple items;
        for (const auto& i : v.items) items.push_back(value_info(i));
        return ir::ValueInfo::of_tuple(std::move(items));
      }
      case ops::SymValue::Kind::None: return {};
    }
    return {};
  }

  void finalize_values(ir::GraphModule& gm) {
    for (auto& [name, sub] : gm.submodules) finalize_values(*sub);
    for (ir::Node* n : gm.graph.nodes()) {
      if (n->op == ir::OpKind::Output || n->op == ir::OpKind::GetAttr) continue;
      n->value = value_info(tracer_.graph().value(n));
      if (const ir::TensorMeta* m = n->value.tensor(); m && n->op == ir::OpKind::Placeholder) {
        auto it = input_specs_.find(n);
        if (it != input_specs_.end() && it->second.kind == ir::InputKind::Parameter) {
          ir::TensorMeta copy = *m;
          copy.requires_grad = true;
          n->value = ir::ValueInfo::of(std::move(copy));
        }
      }
    }
  }

  void build_signature() {
    for (const auto& c : tracer_.constants()) {
      ir::InputSpec spec;
      spec.kind = ir::InputKind::ConstantTensor;
      spec.arg.name = c.node->name;
      spec.target = c.target;
      input_specs_[c.node] = spec;
    }
    for (ir::Node* p : program_.graph().placeholders()) {
      auto it = input_specs_.find(p);
      if (it == input_specs_.end()) throw TraceError("internal", "RuntimeError", "placeholder " + p->name + " has no spec");
      ir::InputSpec spec = it->second;
      if (p->value.sym_int() && spec.arg.type == ir::SpecArgument::Type::Tensor) spec.arg.type = ir::SpecArgument::Type::SymInt;
      program_.signature.inputs.push_back(spec);
    }
    program_.signature.outputs = output_specs_;
  }

  std::string source_name(const Expr& s) const {
    if (const auto* r = tracer_.env().find_symbol(s.symbol_name()); r && !r->sources.empty()) return r->sources.front();
    return s.symbol_name();
  }

  /// Guards, symbols, input shapes and notes, also for a failed trace.
  void report_env() {
    auto& r = result_.report;
    const auto& env = tracer_.env();
    if (binding_) {
      for (size_t i = 0; i < examples_.size(); ++i) {
        ops::InputShapeInfo info{examples_[i].name, examples_[i].is_tensor, {}};
        for (const auto& d : binding_->dims_of(i)) info.dims.push_back(env.replace(d.expr).str());
        r.input_shapes.push_back(std::move(info));
      }
    }
    const symbolic::SymbolName name_of = [this](const Expr& s) { return source_name(s); };
    for (const auto& g : env.guards()) r.guards.push_back({g.expr.str(), symbolic::to_python(g.expr, name_of), g.origin, false});
    for (const auto& a : env.runtime_asserts())
      r.guards.push_back({a.expr.str(), symbolic::to_python(a.expr, name_of), a.origin, true});
    for (const std::string& n : env.symbol_names()) {
      const symbolic::SymbolRecord* rec = env.find_symbol(n);
      ops::SymbolInfo s{n, rec->hint, rec->range.lower.str(), rec->range.upper.str(), rec->sources, ""};
      if (auto it = env.replacements().find(n); it != env.replacements().end()) s.replaced_by = it->second.str();
      r.symbols.push_back(std::move(s));
    }
    for (const auto& rep : env.replacement_log())
      r.replacements.push_back({rep.symbol.str(), rep.target.str(), rep.reason, rep.origin});
    for (const auto& sp : tracer_.specializations())
      r.diagnostics.push_back({"", "", "model code read " + sp.expr + " as a plain integer" +
                                           (sp.where.empty() ? "" : " at " + sp.where) +
                                           (sp.code.empty() ? "" : " (" + sp.code + ")") + ": specialized to " +
                                           std::to_string(sp.value)});
    for (const auto& note : tracer_.notes()) r.diagnostics.push_back({"", "", note});
    if (options_.node_shapes && result_.program)
      for (const ir::Node* n : result_.program->graph().nodes())
        if (n->op == ir::OpKind::CallFunction || n->op == ir::OpKind::Placeholder)
          r.node_shapes.push_back({n->name, tracer_.graph().value(n).str()});
    if (options_.log) r.log = env.log();
  }

  torch::nn::Module* module_;
  const ForwardFn& forward_;
  std::vector<std::string> arg_names_;
  std::vector<c10::IValue> inputs_;
  std::string spec_text_;
  std::string out_spec_;  // the pytree of forward()'s result, for ep.module() after saving
  ExportOptions options_;
  ir::ExportedProgram program_;
  Tracer tracer_;
  ExportResult result_;
  symbolic::DynamicShapesSpec spec_;
  std::vector<symbolic::ExampleInput> examples_;
  std::optional<symbolic::SpecBinding> binding_;
  std::unordered_map<const ir::Node*, ir::InputSpec> input_specs_;
  std::vector<ir::OutputSpec> output_specs_;
  std::vector<ir::Node*> user_inputs_;
  std::vector<StateTensor> state_;
};

}  // namespace

ExportResult export_module(torch::nn::Module& module, const ForwardFn& forward,
                           const std::vector<std::string>& arg_names, const std::vector<c10::IValue>& inputs,
                           const std::string& dynamic_shapes, const ExportOptions& options) {
  return Exporter(&module, forward, arg_names, inputs, dynamic_shapes, options).run();
}

ExportResult export_function(const ForwardFn& forward, const std::vector<std::string>& arg_names,
                             const std::vector<c10::IValue>& inputs, const std::string& dynamic_shapes,
                             const ExportOptions& options) {
  return Exporter(nullptr, forward, arg_names, inputs, dynamic_shapes, options).run();
}

ExportResult export_model(const sdk::ModelDef& def, const std::optional<std::string>& spec,
                          const ExportOptions& options, const std::function<void(torch::nn::Module&)>& prepare,
                          std::optional<std::vector<c10::IValue>> inputs) {
  torch::manual_seed(0);
  std::shared_ptr<torch::nn::Module> module = def.make();
  std::vector<c10::IValue> example = inputs ? std::move(*inputs) : def.example_inputs();
  if (prepare) prepare(*module);
  ExportOptions o = options;
  o.strict = options.strict || def.strict;
  const ForwardFn forward = [&](const std::vector<c10::IValue>& in) { return def.forward(*module, in); };
  return export_module(*module, forward, def.arg_names, example, spec.value_or(def.dynamic_shapes), o);
}

}  // namespace exportlens::trace

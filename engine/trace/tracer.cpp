#include "engine/trace/tracer.h"

#include <c10/core/InferenceMode.h>

#include <atomic>

#include "engine/runtime/torch_types.h"
#include "engine/trace/fake_tensor.h"
#include "engine/trace/source_locator.h"
#include "engine/trace/sym_node.h"
#include "engine/trace/trace_errors.h"

namespace exportlens::trace {

using symbolic::Expr;

namespace {

thread_local Tracer* g_current = nullptr;
thread_local c10::DispatchKeySet g_outside_included, g_outside_excluded;

c10::impl::LocalDispatchKeySet tracing_keys() {
  c10::impl::LocalDispatchKeySet k = c10::impl::tls_local_dispatch_key_set();
  k.included_ = k.included_ | c10::DispatchKeySet({c10::DispatchKey::PrivateUse1, c10::DispatchKey::AutogradPrivateUse1});
  // Keep the default exclusions (autocast stays off); PrivateUse1 has no
  // autocast fallthrough, so the fakes' autocast key must never be reached.
  k.excluded_ = k.excluded_ | c10::DispatchKeySet(c10::DispatchKey::AutocastPrivateUse1);
  return k;
}

uint64_t next_trace_id() {
  static std::atomic<uint64_t> id{1};
  return id++;
}

/// Concrete sizes LibTorch sees for a symbolic shape (unbacked: torch's size-oblivious hint).
std::vector<int64_t> hint_sizes(const symbolic::ShapeEnv& env, const std::vector<Expr>& sizes) {
  std::vector<int64_t> out;
  out.reserve(sizes.size());
  for (const auto& s : sizes) {
    if (auto v = s.as_integer()) out.push_back(*v);
    else out.push_back(env.hint(s).value_or(8192));
  }
  return out;
}

std::string operator_target(const std::string& op) {
  if (op == "sym_min" || op == "sym_max") return "torch." + op;
  if (op == "not_") return "torch.sym_not";
  return "_operator." + op;
}

}  // namespace

namespace {
/// The dispatch state outside every trace, for the tracer's own (Internal) work.
Tracer* remember_outside_keys() {
  if (!g_current) {
    const auto keys = c10::impl::tls_local_dispatch_key_set();
    g_outside_included = keys.included_;
    g_outside_excluded = keys.excluded_;
  }
  return g_current;
}
}  // namespace

Tracer::Tracer(TraceOptions options, ir::GraphModule& root)
    : id_(next_trace_id()), options_(options), graph_(root) {
  remember_outside_keys();  // Internal sections before the first Activation need it too
}

Tracer::~Tracer() = default;

Tracer* Tracer::current() { return g_current; }


Tracer::Activation::Activation(Tracer& t)
    : previous_(remember_outside_keys()), tracer_(t), depth_(t.internal_depth_), dispatch_(tracing_keys()) {
  g_current = &t;
  t.internal_depth_ = 0;  // model code runs now (also inside a cond branch called by the tracer)
}

Tracer::Activation::~Activation() {
  tracer_.internal_depth_ = depth_;
  g_current = previous_;
}

Tracer::Internal::Internal(Tracer& t) : t_(t), dispatch_(g_outside_included, g_outside_excluded) {
  ++t_.internal_depth_;
}
Tracer::Internal::~Internal() { --t_.internal_depth_; }

// ---- tensors ------------------------------------------------------------------------

at::Tensor Tracer::make_fake(ir::Node* node, const ops::SymTensor& sym) {
  Internal internal(*this);
  c10::InferenceMode enabled_autograd(false);
  return at::Tensor(c10::make_intrusive<FakeTensorImpl>(id_, node, sym, hint_sizes(env_, sym.sizes),
                                                        runtime::to_torch(sym.dtype)));
}

ir::Node* Tracer::node_for(const at::Tensor& t) {
  if (!t.defined()) return nullptr;
  ir::Node* n = nullptr;
  if (auto* f = FakeTensorImpl::of(t)) {
    if (f->trace_id() != id_)
      raise(*this, TraceError("internal", "RuntimeError", "a fake tensor of another (finished) trace was used"));
    n = f->node();
  } else if (auto it = state_.find(t.unsafeGetTensorImpl()); it != state_.end()) {
    n = it->second.node;
  } else {
    n = lift_constant(t);
  }
  if (graph_.frame_of(n) != int(graph_.depth()) - 1) {
    if (!capture_)
      raise(*this, TraceError("unsupported", "RuntimeError",
                              "tensor '" + n->name + "' of another graph was used here"));
    n = capture_(n);
  }
  return n;
}

void Tracer::rebind(const at::Tensor& t, ir::Node* node) {
  if (auto* f = FakeTensorImpl::of(t)) {
    f->set_node(node);
  } else if (auto it = state_.find(t.unsafeGetTensorImpl()); it != state_.end()) {
    it->second.node = node;
  }
}

void Tracer::add_state(const at::Tensor& t, ir::Node* placeholder, const std::string& owner) {
  state_[t.unsafeGetTensorImpl()] = {placeholder, owner, t};
  if (!owner.empty()) owner_of_.emplace(placeholder, owner);
}

ir::Node* Tracer::lift_constant(const at::Tensor& t) {
  const std::string target = "lifted_tensor_" + std::to_string(constants_.size());
  ops::SymTensor sym;
  sym.dtype = runtime::from_torch(t.scalar_type());
  for (int64_t s : t.sizes()) sym.sizes.emplace_back(s);
  // Constants live in the program's graph, before the user inputs.
  ir::Node* n = graph_.state_placeholder("c_" + target, ops::SymValue::of(sym));
  constants_.push_back({target, t, n});
  state_[t.unsafeGetTensorImpl()] = {n, "", t};
  return n;
}

// ---- symbolic values -------------------------------------------------------------

c10::SymInt Tracer::sym_int(const Expr& e, SymRecipe recipe) {
  if (auto v = e.as_integer()) return c10::SymInt(*v);
  return c10::SymInt(c10::SymNode(c10::make_intrusive<TraceSymNode>(id_, TraceSymNode::Kind::Int, e, std::move(recipe))));
}

c10::SymBool Tracer::sym_bool(const Expr& e, SymRecipe recipe) {
  if (e.kind() == Expr::Kind::True) return c10::SymBool(true);
  if (e.kind() == Expr::Kind::False) return c10::SymBool(false);
  return c10::SymBool(
      c10::SymNode(c10::make_intrusive<TraceSymNode>(id_, TraceSymNode::Kind::Bool, e, std::move(recipe))));
}

ir::Argument Tracer::argument_for(const c10::SymInt& v) {
  if (auto i = v.maybe_as_int(); i && !v.is_heap_allocated()) return *i;
  return argument_for(v.toSymNode());
}

ir::Argument Tracer::argument_for(const c10::SymNode& node) {
  auto* n = TraceSymNode::of(node);
  if (!n) {
    if (auto v = node->constant_int()) return *v;
    if (auto b = node->constant_bool()) return *b;
    raise(*this, TraceError("internal", "RuntimeError", "a symbolic value from outside ExportLens reached an op"));
  }
  if (auto v = n->constant_int()) return *v;
  if (auto b = n->constant_bool()) return *b;
  const int frame = int(graph_.depth()) - 1;
  if (n->proxy && graph_.frame_of(n->proxy) == frame) return n->proxy;
  const SymRecipe& r = n->recipe();
  ir::Node* p = nullptr;
  switch (r.kind) {
    case SymRecipe::Kind::Value:
      p = r.node;
      break;
    case SymRecipe::Kind::SizeOf:
      p = size_node(r.node, r.dim, n->expr());
      break;
    case SymRecipe::Kind::Operator: {
      std::vector<ir::Argument> args;
      std::vector<ir::Node*> inputs;
      for (const auto& o : r.operands) {
        args.push_back(argument_for(o));
        if (ir::Node* in = args.back().node()) inputs.push_back(in);
      }
      p = graph_.call(ir::Target(operator_target(r.op)), r.op, std::move(args));
      graph_.set_value(p, n->is_bool() ? ops::SymValue::of_bool(n->expr()) : ops::SymValue::of_int(n->expr()));
      stamp(p, inputs);
      break;
    }
  }
  if (!p) raise(*this, TraceError("internal", "RuntimeError", "symbolic value " + n->expr().str() + " has no node"));
  if (graph_.frame_of(p) != frame) {
    if (!capture_) raise(*this, TraceError("unsupported", "RuntimeError", "a symbolic value of another graph was used"));
    p = capture_(p);
  }
  n->proxy = p;
  return p;
}

ir::Node* Tracer::size_node(ir::Node* tensor, int64_t dim, const Expr& e) {
  if (graph_.frame_of(tensor) != int(graph_.depth()) - 1 && capture_) tensor = capture_(tensor);
  auto& by_dim = size_nodes_[tensor];
  if (auto it = by_dim.find(dim); it != by_dim.end()) return it->second;
  ir::Node* n = graph_.call(ir::Target("torch.ops.aten.sym_size.int"), "sym_size_int", {tensor, dim});
  graph_.set_value(n, ops::SymValue::of_int(e));
  stamp(n, {tensor});
  by_dim[dim] = n;
  return n;
}

void Tracer::define_input_dims(ir::Node* placeholder, const std::vector<Expr>& dims) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].is_symbol()) input_dim_of_.emplace(dims[i].symbol_name(), std::make_pair(placeholder, int64_t(i)));
}

ir::Argument Tracer::materialize(const Expr& e, ir::Node* anchor) {
  // Nodes go right after `anchor` in dependency order; the last one made
  // becomes the next anchor.
  struct Builder {
    Tracer& t;
    ir::Node* anchor;
    ir::Argument node(const std::string& op, std::vector<ir::Argument> args, const Expr& value, bool is_bool) {
      ir::Node* n = t.graph_.call_after(anchor, ir::Target(operator_target(op)), op, std::move(args));
      t.graph_.set_value(n, is_bool ? ops::SymValue::of_bool(value) : ops::SymValue::of_int(value));
      anchor = n;
      return n;
    }
    ir::Argument fold(const std::string& op, const Expr& whole, const std::vector<Expr>& parts) {
      ir::Argument acc = build(parts[0]);
      Expr partial = parts[0];
      for (size_t i = 1; i < parts.size(); ++i) {
        partial = op == "add" ? partial + parts[i] : partial * parts[i];
        acc = node(op, {acc, build(parts[i])}, i + 1 == parts.size() ? whole : partial, false);
      }
      return acc;
    }
    ir::Argument build(const Expr& x) {
      using K = Expr::Kind;
      switch (x.kind()) {
        case K::Integer: return *x.as_integer();
        case K::True: return true;
        case K::False: return false;
        case K::Symbol: {
          for (const auto& [sym, def] : t.unbacked_defs_)
            if (sym == x) return def;
          auto it = t.input_dim_of_.find(x.symbol_name());
          if (it == t.input_dim_of_.end())
            throw TraceError("internal", "RuntimeError", "no graph value defines symbol " + x.str());
          ir::Node* n = t.graph_.call_after(anchor, ir::Target("torch.ops.aten.sym_size.int"), "sym_size_int",
                                            {it->second.first, it->second.second});
          t.graph_.set_value(n, ops::SymValue::of_int(x));
          anchor = n;
          return n;
        }
        case K::Add: return fold("add", x, x.args());
        case K::Mul: return fold("mul", x, x.args());
        case K::FloorDiv: return node("floordiv", {build(x.args()[0]), build(x.args()[1])}, x, false);
        case K::Mod: return node("mod", {build(x.args()[0]), build(x.args()[1])}, x, false);
        case K::Eq: return node("eq", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Ne: return node("ne", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Lt: return node("lt", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Le: return node("le", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Gt: return node("gt", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Ge: return node("ge", {build(x.args()[0]), build(x.args()[1])}, x, true);
        case K::Not: return node("not_", {build(x.args()[0])}, x, true);
        case K::And: return fold_bool("and_", x);
        case K::Or: return fold_bool("or_", x);
        default: throw TraceError("unsupported", "RuntimeError", "cannot express " + x.str() + " as graph nodes");
      }
    }
    ir::Argument fold_bool(const std::string& op, const Expr& x) {
      ir::Argument acc = build(x.args()[0]);
      for (size_t i = 1; i < x.args().size(); ++i) acc = node(op, {acc, build(x.args()[i])}, x, true);
      return acc;
    }
  } b{*this, anchor};
  return b.build(e);
}

// ---- provenance and scopes ----------------------------------------------------------

std::optional<ir::SourceLocation> Tracer::model_location() {
  if (!options_.locations) return std::nullopt;
  return SourceLocator::model_frame();
}

symbolic::Provenance Tracer::user_origin(const std::string& rule, const std::optional<ir::SourceLocation>& site) {
  symbolic::Provenance p;
  p.kind = symbolic::Provenance::Kind::RecordedGuard;
  p.rule = rule;
  if (site) {
    p.location = SourceLocator::describe(*site);
    p.code = site->code;
  }
  const auto nodes = graph_.graph().nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    if ((*it)->op == ir::OpKind::CallFunction) {
      p.node = (*it)->name;
      break;
    }
  return p;
}

void Tracer::set_module_paths(std::unordered_map<const void*, std::pair<std::string, std::string>> paths,
                              std::string root_type) {
  module_paths_ = std::move(paths);
  for (const auto& [m, pt] : module_paths_) owner_types_[pt.first] = pt.second;
  scopes_ = {ir::ModuleScope{"L__self__", "", std::move(root_type)}};
}

namespace {
std::string scope_key(const std::string& path) {
  std::string k = "L__self___";
  for (char c : path) k += c == '.' ? '_' : c;
  return k;
}
}  // namespace

void Tracer::enter_module(const void* module) {
  auto it = module_paths_.find(module);
  if (it == module_paths_.end() || it->second.first.empty()) {
    scopes_.push_back(scopes_.empty() ? ir::ModuleScope{} : scopes_.back());
    return;
  }
  scopes_.push_back({scope_key(it->second.first), it->second.first, it->second.second});
}

void Tracer::exit_module() {
  if (scopes_.size() > 1) scopes_.pop_back();
}

std::vector<ir::ModuleScope> Tracer::scope_for(const std::vector<ir::Node*>& inputs) const {
  if (scopes_.size() != 1) return scopes_;
  // No scope helper in use: attribute the op to the module owning a
  // parameter it reads (an approximation of nn_module_stack).
  for (ir::Node* in : inputs) {
    auto owner = owner_of_.find(in);
    if (owner == owner_of_.end()) continue;
    const std::string& path = owner->second;
    std::vector<ir::ModuleScope> out = scopes_;
    for (size_t start = 0;;) {
      const size_t dot = path.find('.', start);
      const std::string prefix = path.substr(0, dot == std::string::npos ? path.size() : dot);
      auto type = owner_types_.find(prefix);
      out.push_back({scope_key(prefix), prefix, type == owner_types_.end() ? "" : type->second});
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return out;
  }
  return scopes_;
}

void Tracer::stamp(ir::Node* n, const std::vector<ir::Node*>& inputs) {
  if (auto loc = model_location()) n->meta.stack_trace = SourceLocator::stack_trace_text(*loc);
  n->meta.nn_module_stack = scope_for(inputs);
}

int64_t Tracer::specialize(const Expr& e) {
  if (auto v = env_.replace(e).as_integer()) return *v;
  const auto loc = model_location();
  int64_t v = 0;
  try {
    v = env_.specialize(e, user_origin("size read as a plain integer (specialization)", loc));
  } catch (const symbolic::DataDependentError& err) {
    raise_data_dependent(*this, err, loc, false);
  }
  specializations_.push_back({e.str(), v, loc ? SourceLocator::describe(*loc) : "", loc ? loc->code : ""});
  return v;
}

std::optional<Strides> Tracer::strides_of(const ir::Node* n) const {
  if (auto it = strides_.find(n); it != strides_.end()) return it->second;
  if (n->op != ir::OpKind::Placeholder) return std::nullopt;
  const ops::SymValue& v = graph_.value(n);
  if (!v.is_tensor()) return std::nullopt;
  return contiguous_strides(v.tensor.sizes);  // inputs, parameters and buffers are contiguous
}

void Tracer::set_strides(const ir::Node* n, std::optional<Strides> s) {
  if (s) strides_[n] = std::move(*s);
  else strides_.erase(n);
}

}  // namespace exportlens::trace

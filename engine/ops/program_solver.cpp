#include "engine/ops/program_solver.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <unordered_map>
#include <set>
#include <unordered_set>

#include "engine/ir/higher_order.h"
#include "engine/ir/pytree_spec.h"
#include "engine/ir/stack_trace.h"
#include "engine/ops/problem_report.h"
#include "engine/ops/rule_helpers.h"
#include "engine/ops/shape_rule.h"
#include "engine/ops/spec_json.h"
#include "engine/symbolic/contiguity_probe.h"
#include "engine/symbolic/export_constraints.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/python_printer.h"
#include "engine/symbolic/solve_memo.h"

namespace exportlens::ops {

using symbolic::DynamicShapesSpec;
using symbolic::Provenance;
using symbolic::ShapeEnv;
using symbolic::SpecBinding;

namespace {

/// "seed_models.py:143 in forward": the innermost frame of the node's stack
/// trace that is user code (frames inside the torch package are skipped, so a
/// Linear's guard points at `self.l(w)`, not at torch/nn/modules/linear.py).
std::string location_of(const ir::Node& n) {
  const ir::SourceLocation* best = nullptr;
  const std::vector<ir::SourceLocation> frames = ir::traceback_frames(n.meta.stack_trace);
  for (const ir::SourceLocation& f : frames)
    if (!best || f.file.find("/torch/") == std::string::npos) best = &f;
  if (!best) return {};
  return std::filesystem::path(best->file).filename().string() + ":" + std::to_string(best->line) + " in " +
         best->function;
}

/// The op as provenance names it: "aten.add.Tensor", or the qualified target.
std::string op_label(const ir::Node& n) {
  return n.target.is_torch_op() ? "aten." + n.target.short_name() : n.target.qualified();
}

bool is_user_input_kind(const ir::InputSpec& s) { return s.kind == ir::InputKind::UserInput; }

/// The floor divisions and remainders inside `e` (as text), e.g. `h // 32` in
/// `Max(1, h // 32) <= 1`: sizes that only exist once an op has made them.
void derived_sizes(const symbolic::Expr& e, std::set<std::string>& out) {
  using K = symbolic::Expr::Kind;
  if (e.kind() == K::FloorDiv || e.kind() == K::Mod) out.insert(e.str());
  for (const symbolic::Expr& a : e.args()) derived_sizes(a, out);
}

void derived_sizes(const SymValue& v, const ShapeEnv& env, std::set<std::string>& out) {
  for (const symbolic::Expr& d : v.tensor.sizes) derived_sizes(env.replace(d), out);
  if (v.kind == SymValue::Kind::Int || v.kind == SymValue::Kind::Bool) derived_sizes(env.replace(v.scalar), out);
  for (const SymValue& i : v.items) derived_sizes(i, env, out);
}

// The forward() arguments' pytree from the root call's in_spec
// (((args...), {kwargs})): one InputTree per argument, its leaves numbered in
// flattened order, with each leaf's argument name and path. False when the
// in_spec is missing, unreadable, or its leaves are not the user inputs.
struct LeafPlace {
  std::string argument, path;
};

void number_leaves(const ir::PyTreeSpec& t, symbolic::InputTree& out, const std::string& argument,
                   const std::string& path, std::vector<LeafPlace>& leaves) {
  using K = ir::PyTreeSpec::Kind;
  using TK = symbolic::InputTree::Kind;
  switch (t.kind) {
    case K::Leaf:
      out.kind = TK::Leaf;
      out.leaf = int(leaves.size());
      leaves.push_back({argument, path});
      return;
    case K::Tuple: out.kind = TK::Tuple; break;
    case K::List: out.kind = TK::List; break;
    case K::Dict: out.kind = TK::Dict; out.keys = t.keys; break;
    case K::Custom:
      out.kind = TK::Custom;
      out.type_name = t.type_name;
      out.keys = ir::dataclass_fields(t);
      break;
  }
  for (size_t i = 0; i < t.children.size(); ++i) {
    std::string key = "[" + std::to_string(i) + "]";
    if (t.kind == K::Dict) key = "['" + t.keys[i] + "']";
    if (t.kind == K::Custom && i < out.keys.size()) key = "." + out.keys[i];
    symbolic::InputTree child;
    number_leaves(t.children[i], child, argument, path + key, leaves);
    out.children.push_back(std::move(child));
  }
}

bool read_input_tree(const ir::ExportedProgram& program, size_t user_inputs, std::vector<symbolic::InputTree>& arguments,
                     std::vector<LeafPlace>& leaves) {
  const ir::ModuleCallEntry* root = nullptr;
  for (const auto& m : program.module_call_graph)
    if (m.fqn.empty()) root = &m;
  if (!root || root->in_spec.empty()) return false;
  const std::optional<ir::PyTreeSpec> spec = ir::treespec_loads(root->in_spec);
  using K = ir::PyTreeSpec::Kind;
  if (!spec || spec->kind != K::Tuple || spec->children.size() != 2 || spec->children[0].kind != K::Tuple ||
      spec->children[1].kind != K::Dict)
    return false;
  const ir::PyTreeSpec& args = spec->children[0];
  const ir::PyTreeSpec& kwargs = spec->children[1];
  if (root->forward_arg_names.size() < args.children.size()) return false;
  for (size_t i = 0; i < args.children.size() + kwargs.children.size(); ++i) {
    const bool positional = i < args.children.size();
    const std::string name = positional ? root->forward_arg_names[i] : kwargs.keys[i - args.children.size()];
    symbolic::InputTree t;
    number_leaves(positional ? args.children[i] : kwargs.children[i - args.children.size()], t, name, "", leaves);
    t.name = name;
    arguments.push_back(std::move(t));
  }
  return leaves.size() == user_inputs;
}

}  // namespace

// ---- propagation over the graph -------------------------------------------------

class Propagation {
 public:
  /// `problems`: where data-dependent guards go when the solve collects every
  /// problem (nullptr: the first one ends the solve).
  Propagation(const PreparedProgram& p, ShapeEnv& env, const SpecBinding& binding, std::vector<Diagnostic>& diags,
              std::vector<ProblemInfo>* problems = nullptr)
      : p_(p), env_(env), binding_(binding), diags_(diags), problems_(problems) {}

  /// Seeds the placeholders, then runs every call_function node; `hook(i, before)`
  /// runs around node i (and once with i == -1 at the end).
  void run(const std::function<void(int, bool)>& hook) {
    seed_placeholders();
    const auto& nodes = p_.nodes();
    const ValueOf value_of = [this](const ir::Node* n) -> const SymValue& { return value(n); };
    for (size_t i = 0; i < nodes.size(); ++i) {
      const ir::Node* n = nodes[i];
      if (n->op != ir::OpKind::CallFunction) continue;
      hook(int(i), false);
      slot(n) = apply_rule(*n, value_of);
      probe_layout(*n);
      hook(int(i), true);
    }
    hook(-1, true);
  }

  const SymValue& value(const ir::Node* n) const {
    static const SymValue none;
    if (!is_top_level(n)) {
      auto it = body_values_.find(n);
      return it == body_values_.end() ? none : it->second;
    }
    const int i = n->index();
    return i >= 0 && size_t(i) < values_.size() ? values_[size_t(i)] : none;
  }

  /// source_expr(source), read once per solve: every recorded guard names its
  /// sources again, and the binding does not change during a solve.
  std::optional<symbolic::Expr> bound_source(const std::string& source) const {
    if (auto it = sources_.find(source); it != sources_.end()) return it->second;
    return sources_.emplace(source, source_expr(source)).first->second;
  }

  /// The expression a source ("L['x'].size()[0]", ".stride()[i]", ".storage_offset()") has now.
  std::optional<symbolic::Expr> source_expr(const std::string& source) const {
    symbolic::SourceName s;
    const std::optional<size_t> input = p_.input_of_source(source, s);
    if (!input) return std::nullopt;
    for (size_t i = *input; i == *input; ++i) {
      // The spec's own symbols: whoever evaluates the guard applies the replacements found since.
      std::vector<symbolic::Expr> sizes;
      for (const auto& d : binding_.dims_of(i)) sizes.push_back(d.expr);
      if (s.property == "size" && s.index >= 0 && size_t(s.index) < sizes.size()) return sizes[size_t(s.index)];
      if (s.property == "stride" && s.index >= 0 && size_t(s.index) < sizes.size())
        return product(sizes, size_t(s.index) + 1, SIZE_MAX, env_.memo());
      if (s.property == "storage_offset") return symbolic::Expr(0);
      if (s.property.empty() && !p_.inputs_[i].is_tensor) {
        if (const ir::Node* n = p_.input_nodes_[i]; n && n->value.sym_int())
          return symbolic::Expr(n->value.sym_int()->example().value_or(0));
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// A recorded guard in this solve's symbols. The translation depends only
  /// on what its sources are bound to, so the solve's memo keeps it: a
  /// re-solve after a spec edit that binds them alike (another range for a
  /// Dim) gets the expression it had, and the memos downstream find it by
  /// identity. Copies of a guard text share their parsed expression.
  std::optional<symbolic::Expr> translate(const symbolic::Expr& recorded) const {
    return in_bound_symbols(recorded, [this](const std::string& s) { return bound_source(s); });
  }

 private:
  /// The node's user source line and op label, as the prepared program read
  /// them once (a wrapper body's node: read now).
  std::string location(const ir::Node& n) const {
    return is_top_level(&n) ? p_.locations_[size_t(n.index())] : location_of(n);
  }
  std::string label(const ir::Node& n) const {
    return is_top_level(&n) ? p_.op_labels_[size_t(n.index())] : op_label(n);
  }

  /// torch's make_fx stores every output's tensor_meta, asking whether it is
  /// contiguous (symbolic/contiguity_probe.h): `size != 1` checks on sizes
  /// that are not statically known to be >= 2, and stride checks, each a
  /// guard. The strides are the file's: contiguous ones are the contiguous
  /// strides of the sizes solved now, others are the file's expressions in
  /// this spec's symbols (no probe where they cannot be translated).
  void probe_layout(const ir::Node& n) {
    const SymValue& v = value(&n);
    if (!v.is_tensor()) return;
    const PreparedProgram::Layout layout =
        is_top_level(&n) ? p_.layouts_[size_t(n.index())] : PreparedProgram::layout_of(n);
    if (layout == PreparedProgram::Layout::Unknown) return;
    const ir::TensorMeta& m = *n.value.tensor();
    if (m.rank() != v.tensor.rank()) return;
    Provenance origin;
    origin.kind = Provenance::Kind::ShapeRule;
    origin.node = n.name;
    origin.op = label(n);
    origin.rule = "tensor_meta: is_contiguous";
    if (layout == PreparedProgram::Layout::Contiguous) {
      if (symbolic::contiguous_probe_is_quiet(env_, v.tensor.sizes) || !first_probe(v.tensor.sizes, {})) return;
      origin.location = location(n);
      symbolic::probe_contiguous(env_, v.tensor.sizes, origin);
      return;
    }
    symbolic::Strides strides;
    for (const ir::SymInt& st : m.strides) {
      auto e = in_spec_symbols(st.expr);
      if (!e) return;
      strides.push_back(*e);
    }
    if (!first_probe(v.tensor.sizes, strides)) return;
    origin.location = location(n);
    symbolic::probe_contiguity(env_, v.tensor.sizes, strides, origin);
  }

  /// Whether this layout is probed for the first time in this solve. A probe
  /// repeated on the same sizes and strides adds nothing: what the first one
  /// asked was decided then (by range, or by the guard it added), and the
  /// facts since only add. Repeated blocks of a model probe once per shape.
  bool first_probe(const std::vector<symbolic::Expr>& sizes, const symbolic::Strides& strides) {
    std::vector<symbolic::Expr> key = sizes;
    key.push_back(symbolic::Expr(-1));  // separates sizes from strides (an empty stride list: contiguous)
    key.insert(key.end(), strides.begin(), strides.end());
    return probed_.insert(std::move(key)).second;
  }

  /// A file expression over the file's input symbols, in this spec's symbols
  /// (memoized: strided views repeat the same few stride expressions).
  /// The solve's memo keeps it across solves, by what the file's symbols are
  /// bound to now (windowed models' strides are kilobytes of floordivs).
  std::optional<symbolic::Expr> in_spec_symbols(const symbolic::Expr& e) {
    if (auto it = translated_.find(e); it != translated_.end()) return it->second;
    const auto bound_to = [this](const std::string& s) -> std::optional<symbolic::Expr> {
      auto it = file_symbols_.find(s);
      if (it == file_symbols_.end()) return std::nullopt;
      return env_.replace(it->second);
    };
    const std::optional<symbolic::Expr> out = in_bound_symbols(e, bound_to);
    translated_.emplace(e, out);
    return out;
  }

  /// `e` with each free symbol replaced by what `bound_to` says it is bound
  /// to (nullopt when one is unbound), through the solve's memo when it has one.
  std::optional<symbolic::Expr> in_bound_symbols(const symbolic::Expr& e, const symbolic::SolveMemo::BoundTo& bound_to) const {
    if (symbolic::SolveMemo* memo = env_.memo()) return memo->substituted(e, bound_to);
    std::map<std::string, symbolic::Expr> subs;
    for (const std::string& s : e.free_symbols()) {
      auto b = bound_to(s);
      if (!b) return std::nullopt;
      subs.emplace(s, *b);
    }
    return subs.empty() ? e : e.substitute(subs);
  }

  void seed_placeholders() {
    values_.assign(p_.nodes().size(), SymValue::none());
    for (const ir::Node* n : p_.nodes())
      if (n->op == ir::OpKind::Placeholder) slot(n) = from_file(n->value, false);
    for (size_t i = 0; i < p_.inputs_.size(); ++i) {
      const ir::Node* n = p_.input_nodes_[i];
      if (!n || !p_.inputs_[i].is_tensor) continue;
      SymTensor t;
      if (const ir::TensorMeta* m = n->value.tensor()) {
        t.dtype = m->dtype;
        t.device = m->device;
      }
      for (const auto& d : binding_.dims_of(i)) t.sizes.push_back(d.expr);
      // The file's symbol for each input dim that is one stands for this spec's size there.
      if (const ir::TensorMeta* m = n->value.tensor())
        for (size_t k = 0; k < m->sizes.size() && k < t.sizes.size(); ++k)
          if (m->sizes[k].expr.is_symbol()) file_symbols_.emplace(m->sizes[k].expr.symbol_name(), t.sizes[k]);
      slot(n) = SymValue::of(std::move(t));
    }
  }

  /// A value as the file records it, every symbolic size at its example value.
  SymValue from_file(const ir::ValueInfo& v, bool fresh_unbacked) {
    if (const ir::TensorMeta* m = v.tensor()) {
      SymTensor t;
      t.dtype = m->dtype;
      t.device = m->device;
      for (const auto& s : m->sizes) t.sizes.push_back(s.example() ? Expr(*s.example()) : unbacked(fresh_unbacked));
      return SymValue::of(std::move(t));
    }
    if (const ir::SymInt* s = v.sym_int())
      return SymValue::of_int(s->example() ? Expr(*s->example()) : unbacked(fresh_unbacked));
    if (const ir::SymBool* b = v.sym_bool()) return SymValue::of_bool(symbolic::Expr::boolean(b->hint.value_or(true)));
    if (const ir::ValueTuple* tup = v.tuple()) {
      std::vector<SymValue> items;
      for (const auto& item : *tup) items.push_back(from_file(item, fresh_unbacked));
      return SymValue::list(std::move(items));
    }
    return SymValue::none();
  }

  /// An op of a library's own namespace (torch.library), not ATen's or prims'.
  static bool is_custom_op(const ir::Target& t) {
    if (!t.is_torch_op()) return false;
    const std::string ns = t.op_namespace();
    return ns != "aten" && ns != "prims" && ns != "higher_order";
  }

  /// A value as the file records it, each size over the file's input symbols
  /// rewritten in this spec's sizes: what the op's fake kernel computed at
  /// export, for sizes that are functions of the inputs (a custom op's
  /// registered fake kernel; guards it added are in the file's recorded
  /// guards). nullopt when a size names anything else (an unbacked symbol).
  std::optional<SymValue> recorded_in_spec(const ir::ValueInfo& v) {
    if (const ir::TensorMeta* m = v.tensor()) {
      SymTensor t;
      t.dtype = m->dtype;
      t.device = m->device;
      for (const auto& s : m->sizes) {
        auto e = in_spec_symbols(s.expr);
        if (!e) return std::nullopt;
        t.sizes.push_back(env_.replace(*e));
      }
      return SymValue::of(std::move(t));
    }
    if (const ir::SymInt* s = v.sym_int()) {
      auto e = in_spec_symbols(s->expr);
      if (!e) return std::nullopt;
      return SymValue::of_int(env_.replace(*e));
    }
    if (const ir::ValueTuple* tup = v.tuple()) {
      std::vector<SymValue> items;
      for (const auto& item : *tup) {
        auto i = recorded_in_spec(item);
        if (!i) return std::nullopt;
        items.push_back(std::move(*i));
      }
      return SymValue::list(std::move(items));
    }
    return std::nullopt;
  }

  symbolic::Expr unbacked(bool fresh) {
    if (!fresh) return symbolic::Expr(0);
    Provenance o;
    o.kind = Provenance::Kind::ShapeRule;
    o.rule = "no shape rule: data-dependent size";
    return env_.create_unbacked(o);
  }

  bool is_top_level(const ir::Node* n) const {
    const int i = n->index();
    return i >= 0 && size_t(i) < p_.nodes().size() && p_.nodes()[size_t(i)] == n;
  }

  /// A context-wrapper HOP (ir/higher_order.h): its body traced on the
  /// operands' values, every body node's rule and guards in order (torch's
  /// trace goes through the body the same way); the value is the tuple of
  /// the body's outputs.
  SymValue trace_body(const ir::Node& n, const ir::GraphModule& body, size_t body_at, const ValueOf& value_of) {
    RuleContext ctx(env_, n, value_of, [this](const ir::Node& m) { return location(m); });
    size_t operand = body_at + 1;
    std::vector<SymValue> outputs;
    for (const ir::Node* m : body.graph.nodes()) {
      switch (m->op) {
        case ir::OpKind::Placeholder:
          body_values_[m] = operand < n.args().size() ? ctx.value(operand++) : SymValue::none();
          break;
        case ir::OpKind::CallFunction: {
          const ir::GraphModule* inner = ir::wrapper_body(*m, body);
          body_values_[m] = inner ? trace_body(*m, *inner, *ir::wrapper_body_argument(m->target), value_of)
                                  : apply_rule(*m, value_of);
          probe_layout(*m);
          break;
        }
        case ir::OpKind::Output:
          if (!m->args().empty()) {
            if (const ir::ArgumentList* l = m->args()[0].list())
              for (const auto& item : l->items) outputs.push_back(item.node() ? value(item.node()) : SymValue::none());
          }
          break;
        case ir::OpKind::GetAttr: break;
      }
    }
    return SymValue::list(std::move(outputs));
  }

  /// while_loop(cond, body, carried, additional): every iteration keeps the
  /// carried values' shapes, so the outputs are the carried values. Under
  /// autograd (an operand requires grad: a parameter in the training IR)
  /// torch traces the loop in its stack-output form, whose iteration count is
  /// a fresh unbacked symbol >= 1 (repeat's size, then autograd's check): no
  /// node holds it, but it stays in the range constraints.
  SymValue while_loop(const ir::Node& n, const ValueOf& value_of) {
    RuleContext ctx(env_, n, value_of, [this](const ir::Node& m) { return location(m); });
    SymValue carried = n.args().size() > 2 ? ctx.value(2) : SymValue::none();
    if (carried.kind != SymValue::Kind::List) return from_file(n.value, true);
    bool autograd = false;
    for (size_t i = 2; i < n.args().size() && i < 4; ++i)
      if (const ir::ArgumentList* l = n.args()[i].list())
        for (const auto& item : l->items)
          if (const ir::Node* in = item.node(); in && in->value.tensor() && in->value.tensor()->requires_grad) autograd = true;
    if (autograd) {
      Provenance o;
      o.kind = Provenance::Kind::ShapeRule;
      o.rule = "while_loop under autograd: its iteration count";
      o.node = n.name;
      env_.constrain_range(env_.create_unbacked(o), symbolic::ValueRange::at_least(1), o);
    }
    return carried;
  }

  SymValue apply_rule(const ir::Node& n, const ValueOf& value_of) {
    if (is_top_level(&n))
      if (const ir::GraphModule* body = ir::wrapper_body(n, p_.program().graph_module))
        return trace_body(n, *body, *ir::wrapper_body_argument(n.target), value_of);
    if (n.target.is_higher_order() && n.target.op_name() == "while_loop") return while_loop(n, value_of);
    const ShapeRule* rule = find_shape_rule(n.target);
    const std::string& op = label(n);
    if (!rule) {
      if (is_custom_op(n.target))
        if (auto v = recorded_in_spec(n.value)) {
          note(n, op, "no shape rule for " + n.target.qualified() + " (a custom op: torch runs its fake kernel); "
                          "its output sizes are the file's, over this spec's sizes");
          return *v;
        }
      note(n, op, "no shape rule for " + n.target.qualified() + "; its output shapes are specialized to the "
                      "example sizes");
      return from_file(n.value, true);
    }
    RuleContext ctx(env_, n, value_of, [this](const ir::Node& m) { return location(m); });
    try {
      return (*rule)(ctx);
    } catch (const RuleError& e) {
      note(n, op, std::string(e.what()) + "; its output shapes are specialized to the example sizes");
      return from_file(n.value, true);
    } catch (const symbolic::DataDependentError& e) {
      if (!problems_) throw;
      symbolic::Provenance origin = e.origin();
      if (origin.node.empty()) origin.node = n.name;
      if (origin.op.empty()) origin.op = op;
      if (origin.location.empty()) origin.location = location(n);
      problems_->push_back({"data_dependent_guard", e.expr().str(), e.what(), origin, e.expr().str()});
      return from_file(n.value, true);
    }
  }

  void note(const ir::Node& n, const std::string& op, std::string message) {
    diags_.push_back({n.name, op, std::move(message)});
  }

  const PreparedProgram& p_;
  ShapeEnv& env_;
  const SpecBinding& binding_;
  std::vector<Diagnostic>& diags_;
  std::vector<ProblemInfo>* problems_;
  SymValue& slot(const ir::Node* n) {
    const size_t i = size_t(n->index());
    if (i >= values_.size()) values_.resize(i + 1);
    return values_[i];
  }

  std::vector<SymValue> values_;  // by node index
  std::unordered_map<const ir::Node*, SymValue> body_values_;  // nodes of wrapper HOPs' bodies
  std::map<std::string, symbolic::Expr> file_symbols_;  // the file's input symbols -> this spec's sizes
  std::unordered_map<symbolic::Expr, std::optional<symbolic::Expr>> translated_;  // in_spec_symbols' memo
  mutable std::unordered_map<std::string, std::optional<symbolic::Expr>> sources_;  // bound_source's memo
  struct ExprsHash {
    size_t operator()(const std::vector<symbolic::Expr>& v) const {
      size_t h = v.size();
      for (const auto& e : v) h = h * 1000003u ^ e.hash();
      return h;
    }
  };
  std::unordered_set<std::vector<symbolic::Expr>, ExprsHash> probed_;  // first_probe's layouts
};

// ---- PreparedProgram ------------------------------------------------------------

PreparedProgram::PreparedProgram(const ir::ExportedProgram& program)
    : program_(&program), nodes_(program.graph().nodes()), memo_(std::make_unique<symbolic::SolveMemo>()) {
  read_inputs();
  read_layouts();
  parse_recorded_guards();
  attribute_recorded_guards();
}

PreparedProgram::~PreparedProgram() = default;

PreparedProgram::MemoLoan::MemoLoan(const PreparedProgram& program) : program_(program) {
  std::lock_guard<std::mutex> lock(program_.memo_mutex_);
  memo_ = program_.memo_ ? std::move(program_.memo_) : std::make_unique<symbolic::SolveMemo>();
}

PreparedProgram::MemoLoan::~MemoLoan() {
  std::lock_guard<std::mutex> lock(program_.memo_mutex_);
  if (!program_.memo_) program_.memo_ = std::move(memo_);  // else a parallel solve's memo came back first
}

void PreparedProgram::read_inputs() {
  std::vector<const ir::InputSpec*> users;
  for (const auto& s : program_->signature.inputs)
    if (is_user_input_kind(s)) users.push_back(&s);
  std::vector<std::string> names;
  for (const auto& m : program_->module_call_graph)
    if (m.fqn.empty() && m.forward_arg_names.size() == users.size()) names = m.forward_arg_names;
  // An argument that is a tuple, list, dict or dataclass: its leaves are the user inputs.
  std::vector<LeafPlace> leaves;
  const bool nested = read_input_tree(*program_, users.size(), arguments_, leaves) &&
                      std::any_of(arguments_.begin(), arguments_.end(),
                                  [](const auto& a) { return a.kind != symbolic::InputTree::Kind::Leaf; });
  if (!nested) arguments_.clear();
  for (size_t i = 0; i < users.size(); ++i) {
    const ir::InputSpec& s = *users[i];
    symbolic::ExampleInput in;
    in.name = nested ? leaves[i].argument : i < names.size() ? names[i] : s.arg.name;
    if (nested) in.path = leaves[i].path;
    const ir::Node* n = s.arg.type == ir::SpecArgument::Type::Constant ? nullptr : program_->graph().find(s.arg.name);
    const ir::TensorMeta* m = n ? n->value.tensor() : nullptr;
    in.is_tensor = m != nullptr;
    if (m)
      for (const auto& d : m->sizes) in.sizes.push_back(d.example().value_or(0));
    input_by_source_.emplace(symbolic::input_source(in), inputs_.size());
    inputs_.push_back(std::move(in));
    input_nodes_.push_back(n);
  }
}

std::optional<size_t> PreparedProgram::input_of_source(const std::string& source, symbolic::SourceName& out) const {
  // "L['x'][0].size()[1]": the input's own source, then what of it is meant.
  size_t end = source.size();
  for (const char* property : {".size()[", ".stride()[", ".storage_offset()"})
    if (const size_t at = source.rfind(property); at != std::string::npos) end = std::min(end, at);
  const auto it = input_by_source_.find(source.substr(0, end));
  if (it == input_by_source_.end()) return std::nullopt;
  if (!symbolic::split_source_name(symbolic::input_source(inputs_[it->second].name) + source.substr(end), out))
    return std::nullopt;
  return it->second;
}

PreparedProgram::Layout PreparedProgram::layout_of(const ir::Node& n) {
  const ir::TensorMeta* m = n.value.tensor();
  if (n.op != ir::OpKind::CallFunction || !m || m->strides.size() != m->sizes.size()) return Layout::Unknown;
  return recorded_contiguous(&n) ? Layout::Contiguous : Layout::Strided;
}

void PreparedProgram::read_layouts() {
  layouts_.assign(nodes_.size(), Layout::Unknown);
  locations_.assign(nodes_.size(), std::string());
  op_labels_.assign(nodes_.size(), std::string());
  for (const ir::Node* n : nodes_) {
    const size_t i = size_t(n->index());
    layouts_[i] = layout_of(*n);
    locations_[i] = location_of(*n);
    op_labels_[i] = op_label(*n);
  }
}

void PreparedProgram::parse_recorded_guards() {
  // Repeated blocks record the same guard many times (a Swin stage: 12 copies
  // of a 1,500-character expression): each text is parsed once.
  std::unordered_map<std::string, symbolic::Expr> parsed;
  for (const std::string& text : program_->guards_code) {
    RecordedGuard g;
    g.text = text;
    if (auto it = parsed.find(text); it != parsed.end()) {
      g.expr = it->second;
    } else {
      try {
        g.expr = symbolic::parse_python_guard(text);
      } catch (const std::exception& e) {
        diagnostics_.push_back({"", "", std::string("recorded guard not replayed: ") + e.what()});
        continue;
      }
      parsed.emplace(text, g.expr);
    }
    bool known = true;
    for (const std::string& s : g.expr.free_symbols()) {
      symbolic::SourceName name;
      known = known && input_of_source(s, name).has_value();
    }
    if (!known) {
      diagnostics_.push_back({"", "", "recorded guard not replayed (it names inputs ExportLens does not track): " + text});
      continue;
    }
    recorded_.push_back(std::move(g));
  }
}

DynamicShapesSpec PreparedProgram::recorded_spec() const {
  DynamicShapesSpec spec;
  spec.form = DynamicShapesSpec::Form::Dict;
  const auto leaf = [&](size_t i) {
    symbolic::InputShapeSpec in;
    const ir::TensorMeta* m = input_nodes_[i] ? input_nodes_[i]->value.tensor() : nullptr;
    if (m) {
      in.form = symbolic::InputShapeSpec::Form::Tuple;
      for (size_t d = 0; d < m->sizes.size(); ++d) {
        symbolic::DimSpec ds;
        ds.kind = m->sizes[d].is_static() ? symbolic::DimSpec::Kind::Static : symbolic::DimSpec::Kind::Auto;
        in.dims.emplace_back(int64_t(d), ds);
      }
    }
    return in;
  };
  if (arguments_.empty()) {
    for (size_t i = 0; i < inputs_.size(); ++i) spec.inputs.emplace_back(inputs_[i].name, leaf(i));
    return spec;
  }
  // A nested argument's spec mirrors it: a tuple for a tuple, a list for a
  // list or a dataclass (its fields), a dict with its keys.
  const std::function<symbolic::InputShapeSpec(const symbolic::InputTree&)> mirror = [&](const symbolic::InputTree& t) {
    using TK = symbolic::InputTree::Kind;
    if (t.kind == TK::Leaf) return leaf(size_t(t.leaf));
    symbolic::InputShapeSpec in;
    in.container = true;
    in.form = t.kind == TK::Tuple  ? symbolic::InputShapeSpec::Form::Tuple
              : t.kind == TK::Dict ? symbolic::InputShapeSpec::Form::Dict
                                   : symbolic::InputShapeSpec::Form::List;
    for (size_t c = 0; c < t.children.size(); ++c)
      in.items.emplace_back(t.kind == TK::Dict ? t.keys[c] : "", mirror(t.children[c]));
    return in;
  };
  for (const auto& a : arguments_) spec.inputs.emplace_back(a.name, mirror(a));
  return spec;
}

void PreparedProgram::attribute_recorded_guards() {
  if (recorded_.empty()) return;
  // Trace once with every tensor dim Dim.AUTO (what the program was exported
  // with, or looser) and see after which node each recorded guard follows
  // from the shape rules' guards.
  DynamicShapesSpec all_auto = recorded_spec();
  const std::function<void(symbolic::InputShapeSpec&)> all_dims_auto = [&](symbolic::InputShapeSpec& in) {
    for (auto& [k, d] : in.dims) d.kind = symbolic::DimSpec::Kind::Auto;
    for (auto& [k, item] : in.items) all_dims_auto(item);
  };
  for (auto& [name, in] : all_auto.inputs) all_dims_auto(in);
  const MemoLoan memo(*this);
  ShapeEnv env(memo.get());
  env.set_logging(false);
  std::vector<Diagnostic> ignored;
  const SpecBinding binding = symbolic::bind_spec(env, all_auto, inputs_, input_tree());
  Propagation prop(*this, env, binding, ignored);
  const auto& nodes = nodes_;
  std::vector<bool> explained(recorded_.size(), false);
  // Copies of one guard text follow at the same node: each distinct text is
  // translated and tested once, for all its copies (`copies`).
  std::unordered_map<std::string, size_t> first_of_text;
  std::vector<std::vector<size_t>> copies(recorded_.size());
  for (size_t k = 0; k < recorded_.size(); ++k)
    copies[first_of_text.emplace(recorded_[k].text, k).first->second].push_back(k);
  // Each recorded guard in the trace's symbols, once: static_truth applies
  // the replacements the trace has found so far (translating again after
  // every node was what made large programs take minutes).
  std::vector<std::optional<symbolic::Expr>> translated(recorded_.size());
  std::vector<size_t> open;  // the unexplained distinct ones, in order
  for (size_t k = 0; k < recorded_.size(); ++k) {
    if (copies[k].empty()) continue;
    translated[k] = prop.translate(recorded_[k].expr);
    if (translated[k]) open.push_back(k);
  }
  // Whether torch recorded a guard (in the trace's symbols, replaced).
  const auto recorded_among = [&](const symbolic::Expr& guard) {
    for (size_t k = 0; k < recorded_.size(); ++k)
      if (translated[k] && env.replace(*translated[k]) == guard) return true;
    return false;
  };
  size_t guards_seen = 0;
  try {
    prop.run([&](int index, bool after) {
      if (!after || index < 0 || env.guards().size() == guards_seen || open.empty()) return;
      const size_t first_new = guards_seen;  // the guards this node's rule and layout probe made
      guards_seen = env.guards().size();
      std::vector<size_t> now;
      for (size_t j = 0; j < open.size();) {
        const size_t k = open[j];
        if (env.static_truth(*translated[k]) != std::optional<bool>(true)) {
          ++j;
          continue;
        }
        open.erase(open.begin() + std::ptrdiff_t(j));
        now.push_back(k);
      }
      for (size_t g = first_new; g < env.guards().size(); ++g) {
        const symbolic::Expr made = env.replace(env.guards()[g].expr);
        const std::vector<symbolic::Expr> facts = symbolic::nested_division_facts(made);
        if (facts.empty() || recorded_among(made)) continue;
        // torch did not record this guard over b // (b // d): it read that as
        // d (the nested division rule), so it knew b % d == 0 before this
        // node, from user code (timm asserts that the window divides the
        // height before the window partition's view). Replayed before it.
        for (size_t j = 0; j < open.size();) {
          const size_t k = open[j];
          if (std::find(facts.begin(), facts.end(), env.replace(*translated[k])) == facts.end()) {
            ++j;
            continue;
          }
          open.erase(open.begin() + std::ptrdiff_t(j));
          for (const size_t c : copies[k]) {
            explained[c] = true;
            recorded_[c].anchor_node = index;
            recorded_[c].after_node = false;
            recorded_[c].explained_by = nodes[size_t(index)]->name;
          }
        }
      }
      if (now.empty()) return;
      // When torch recorded none of the guards this node makes, its trace
      // knew their answers already: from the guards explained here, which it
      // therefore evaluated before this node's checks (in user code, as
      // DINOv2's num_patches == num_positions before the position add, or in
      // an op's fake kernel ahead of the checks its rule makes). They are
      // replayed before the node, and its own checks then add nothing, as in
      // torch.
      bool torch_made_one = false;
      for (size_t g = first_new; g < env.guards().size() && !torch_made_one; ++g) {
        const symbolic::Expr made = env.replace(env.guards()[g].expr);
        for (const size_t k : now) torch_made_one = torch_made_one || env.replace(*translated[k]) == made;
      }
      for (const size_t k : now)
        for (const size_t c : copies[k]) {
          explained[c] = true;
          recorded_[c].anchor_node = index;
          recorded_[c].after_node = torch_made_one;
          recorded_[c].explained_by = nodes[size_t(index)]->name;
        }
    });
  } catch (const std::exception& e) {
    diagnostics_.push_back({"", "", std::string("could not place the recorded guards in the trace: ") + e.what()});
  }
  // An unexplained guard (user code, or an op guard no rule makes) goes
  // before the node that explains the next explained one. One over sizes
  // that an op makes (`(h//8)**2 != h//8`, the checks of flatten's view meta
  // on a strided conv's output) was evaluated where those sizes first exist: it
  // goes before the first node after the previous explained guard whose
  // output holds them, so that the node's own probe sees it, as in torch.
  std::vector<std::set<std::string>> made(nodes.size());  // each node's output sizes' divisions, lazily
  std::vector<bool> made_known(nodes.size(), false);
  int earliest = 0;  // the first node an unexplained guard may go before
  for (size_t k = 0; k < recorded_.size(); ++k) {
    if (explained[k]) {
      earliest = std::max(earliest, recorded_[k].anchor_node + (recorded_[k].after_node ? 1 : 0));
      continue;
    }
    recorded_[k].anchor_node = -1;  // after the last node, unless an explained guard follows
    recorded_[k].after_node = true;
    for (size_t j = k + 1; j < recorded_.size(); ++j)
      if (explained[j]) {
        recorded_[k].anchor_node = recorded_[j].anchor_node;
        recorded_[k].after_node = false;
        break;
      }
    std::set<std::string> needs;
    if (translated[k]) derived_sizes(env.replace(*translated[k]), needs);
    if (needs.empty()) continue;
    const int last = recorded_[k].anchor_node < 0 ? int(nodes.size()) - 1 : recorded_[k].anchor_node;
    for (int i = earliest; i <= last; ++i) {
      if (nodes[size_t(i)]->op != ir::OpKind::CallFunction) continue;
      if (!made_known[size_t(i)]) {
        derived_sizes(prop.value(nodes[size_t(i)]), env, made[size_t(i)]);
        made_known[size_t(i)] = true;
      }
      const auto& have = made[size_t(i)];
      if (std::all_of(needs.begin(), needs.end(), [&](const std::string& t) { return have.count(t) > 0; })) {
        recorded_[k].anchor_node = i;
        recorded_[k].after_node = false;
        earliest = i;
        break;
      }
    }
  }
}

// ---- solving ---------------------------------------------------------------------

namespace {

SymValue simplified(const SymValue& v, const ShapeEnv& env) {
  SymValue out = v;
  switch (v.kind) {
    case SymValue::Kind::Tensor:
      for (auto& d : out.tensor.sizes) d = env.replace(d);
      break;
    case SymValue::Kind::Int:
    case SymValue::Kind::Bool: out.scalar = env.replace(v.scalar); break;
    case SymValue::Kind::List:
      for (auto& i : out.items) i = simplified(i, env);
      break;
    default: break;
  }
  return out;
}

class Solver {
 public:
  Solver(const PreparedProgram& p, const DynamicShapesSpec& spec, const SolveOptions& o, symbolic::SolveMemo* memo)
      : p_(p), spec_(spec), options_(o), env_(memo) {}

  SolveResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    result_.spec_text = symbolic::print_dynamic_shapes(spec_);
    result_.spec_json = spec_to_json(spec_);
    result_.diagnostics = p_.diagnostics();
    env_.set_logging(options_.log);
    try {
      solve();
    } catch (const Error& e) {
      // The kinds a solve reports by name; any other error of ours is a bug here.
      switch (e.kind()) {
        case ErrorKind::Constraint: fail(SolveStatus::Violation, "constraint", e.what()); break;
        case ErrorKind::Spec:
        case ErrorKind::DataDependent:
        case ErrorKind::Check: fail(SolveStatus::Error, std::string(error_kind_name(e.kind())), e.what()); break;
        default: fail(SolveStatus::Error, "internal", e.what());
      }
    } catch (const std::exception& e) {
      fail(SolveStatus::Error, "internal", e.what());
    }
    report_env();
    if (options_.collect_all) {
      result_.problems = collect_problems(result_);
      if (result_.status == SolveStatus::Ok && !result_.trace_problems.empty()) {
        const ProblemInfo& first = result_.trace_problems.front();
        fail(SolveStatus::Error, "data_dependent", first.message);
      }
    }
    result_.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return std::move(result_);
  }

 private:
  void fail(SolveStatus s, std::string kind, std::string message) {
    result_.status = s;
    result_.error_kind = std::move(kind);
    result_.message = std::move(message);
  }

  void solve() {
    binding_ = symbolic::bind_spec(env_, spec_, p_.inputs(), p_.input_tree());
    Propagation prop(p_, env_, *binding_, result_.diagnostics, options_.collect_all ? &result_.trace_problems : nullptr);
    const auto& nodes = p_.nodes();
    prop.run([&](int index, bool after) { replay(prop, nodes, index, after); });
    if (options_.node_shapes)
      for (const ir::Node* n : nodes)
        if (n->op == ir::OpKind::CallFunction || n->op == ir::OpKind::Placeholder)
          result_.node_shapes.push_back({n->name, simplified(prop.value(n), env_).str()});
    // torch's inline constraints: every data-dependent symbol the trace created.
    std::vector<symbolic::Expr> unbacked;
    for (const std::string& s : env_.symbol_names())
      if (env_.is_unbacked(symbolic::Expr::symbol(s)) && !env_.replacements().count(s))
        unbacked.push_back(symbolic::Expr::symbol(s));

    const symbolic::ConstraintReport report = symbolic::check_constraints(env_, *binding_, spec_);
    if (report.failed()) {
      fail(SolveStatus::Violation, "constraint", report.message);
      record_violations(result_, report, spec_);
      return;
    }
    const auto ranges = symbolic::compute_range_constraints(env_, *binding_, unbacked);
    for (const auto& r : ranges.entries)
      result_.range_constraints.push_back({r.expr.str(), r.range.lower.str(), r.range.upper.str()});
    if (!ranges.conflicts.empty()) {
      std::string msg = "Found the following conflicts between user-specified ranges and inferred ranges from model "
                        "tracing:";
      for (const auto& c : ranges.conflicts) msg += "\n" + c;
      fail(SolveStatus::Violation, "range_conflict", msg);
    }
  }

  void replay(const Propagation& prop, const std::vector<ir::Node*>& nodes, int index, bool after) {
    if (!options_.replay_recorded_guards || p_.recorded_guards().empty()) return;
    if (replay_order_.empty()) {
      // Copies of one guard text share their place; the first decides them all.
      std::set<std::pair<std::pair<int, bool>, std::string_view>> placed;
      for (size_t k = 0; k < p_.recorded_guards().size(); ++k) {
        const RecordedGuard& g = p_.recorded_guards()[k];
        const auto place = std::make_pair(g.anchor_node, g.after_node);
        if (placed.emplace(place, g.text).second) replay_order_[place].push_back(k);
      }
    }
    auto it = replay_order_.find(std::make_pair(index, after));
    if (it == replay_order_.end()) return;
    for (size_t k : it->second) {
      const RecordedGuard& g = p_.recorded_guards()[k];
      const auto e = prop.translate(g.expr);
      if (!e) continue;
      Provenance origin;
      origin.kind = Provenance::Kind::RecordedGuard;
      origin.detail = g.text;
      if (index >= 0) {
        origin.node = nodes[size_t(index)]->name;
        origin.rule = after ? "after" : "before";
      } else {
        origin.rule = "after the last";
      }
      if (!env_.evaluate(*e, origin))
        result_.diagnostics.push_back({origin.node, "", "recorded guard is false for the example inputs: " + g.text});
    }
  }

  std::string python_name(const symbolic::Expr& s) const { return python_name_of_symbol(s.symbol_name()); }
  std::string python_name_of_symbol(const std::string& s) const {
    if (const auto* r = env_.find_symbol(s); r && !r->sources.empty()) return r->sources.front();
    return s;
  }

  // Every solve reports every guard's text: the memo keeps what kilobyte-long guards print as.
  std::string text(const symbolic::Expr& e) const {
    symbolic::SolveMemo* memo = env_.memo();
    return memo ? memo->text(e) : e.str();
  }
  std::string python_text(const symbolic::Expr& e, const symbolic::SymbolName& name_of) const {
    symbolic::SolveMemo* memo = env_.memo();
    if (!memo) return symbolic::to_python(e, name_of);
    const auto python_name_of = [this](const std::string& s) { return python_name_of_symbol(s); };
    return memo->python_text(e, python_name_of, [&] { return symbolic::to_python(e, name_of); });
  }

  void report_env() {
    if (binding_) {
      for (size_t i = 0; i < p_.inputs().size(); ++i) {
        InputShapeInfo info;
        info.name = p_.inputs()[i].display_name();
        info.is_tensor = p_.inputs()[i].is_tensor;
        for (const auto& d : binding_->dims_of(i)) info.dims.push_back(env_.replace(d.expr).str());
        result_.input_shapes.push_back(std::move(info));
      }
    }
    const symbolic::SymbolName name_of = [this](const symbolic::Expr& s) { return python_name(s); };
    for (const auto& g : env_.guards()) result_.guards.push_back({text(g.expr), python_text(g.expr, name_of), g.origin, false});
    for (const auto& a : env_.runtime_asserts())
      result_.guards.push_back({text(a.expr), python_text(a.expr, name_of), a.origin, true});
    for (const std::string& n : env_.symbol_names()) {
      const symbolic::SymbolRecord* r = env_.find_symbol(n);
      SymbolInfo s{n, r->hint, r->range.lower.str(), r->range.upper.str(), r->sources, ""};
      if (auto it = env_.replacements().find(n); it != env_.replacements().end()) s.replaced_by = it->second.str();
      result_.symbols.push_back(std::move(s));
    }
    for (const auto& rep : env_.replacement_log())
      result_.replacements.push_back({rep.symbol.str(), rep.target.str(), rep.reason, rep.origin});
    if (options_.log) result_.log = env_.log();
  }

  const PreparedProgram& p_;
  const DynamicShapesSpec& spec_;
  SolveOptions options_;
  ShapeEnv env_;
  std::optional<SpecBinding> binding_;
  std::map<std::pair<int, bool>, std::vector<size_t>> replay_order_;  // recorded guards by place in the trace
  SolveResult result_;
};

}  // namespace

SolveResult solve(const PreparedProgram& program, const DynamicShapesSpec& spec, const SolveOptions& options) {
  const PreparedProgram::MemoLoan memo(program);
  return Solver(program, spec, options, memo.get()).run();
}

SolveResult solve(const PreparedProgram& program, std::string_view spec_text, const SolveOptions& options) {
  DynamicShapesSpec spec;
  try {
    spec = symbolic::parse_dynamic_shapes(spec_text);
  } catch (const std::exception& e) {
    SolveResult r;
    r.status = SolveStatus::Error;
    r.error_kind = "spec";
    r.message = e.what();
    r.diagnostics = program.diagnostics();
    return r;
  }
  return solve(program, spec, options);
}

std::string_view status_name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Ok: return "ok";
    case SolveStatus::Violation: return "violation";
    case SolveStatus::Error: return "error";
  }
  return "error";
}

}  // namespace exportlens::ops

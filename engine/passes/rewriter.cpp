#include "engine/passes/rewriter.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <unordered_set>

#include "engine/base/save_and_restore.h"
#include "engine/ir/purity.h"

namespace exportlens::passes {

namespace {

constexpr int kMaxRuleDepth = 32;  // a rule that keeps calling itself is a bug, not a program

/// The name FX gives a call of `target` (make_fx names a node after its op packet).
std::string name_candidate(const ir::Target& target) {
  if (target.qualified() == "torch.ops.aten.sym_size.int") return "sym_size_int";
  // Export's runtime-assert pass names asserts after the overload, not the op packet.
  if (target.qualified() == "torch.ops.aten._assert_scalar.default") return "_assert_scalar_default";
  return ir::call_name(target);
}

ir::NodeMetadata inherited_meta(const ir::Node* origin, const std::string& pass) {
  ir::NodeMetadata m;
  if (!origin) return m;
  m.stack_trace = origin->meta.stack_trace;
  m.nn_module_stack = origin->meta.nn_module_stack;
  m.source_fn_stack = origin->meta.source_fn_stack;
  m.torch_fn = origin->meta.torch_fn;
  m.custom = origin->meta.custom;
  m.provenance.push_back({pass, origin->name,
                          origin->op == ir::OpKind::CallFunction ? op_key(origin->target) : std::string()});
  m.provenance.insert(m.provenance.end(), origin->meta.provenance.begin(), origin->meta.provenance.end());
  return m;
}

/// torch regenerates the runtime asserts of a retraced program, and each
/// message names the node that computes the checked expression by its new
/// name ("... u0 >= 10 on node 'ge'"): keep a copied assert's message true.
void name_assert_operand(const ir::Target& target, std::vector<ir::Argument>& args) {
  if (target.qualified() != "torch.ops.aten._assert_scalar.default" || args.size() < 2) return;
  const ir::Node* operand = args[0].node();
  auto* message = std::get_if<std::string>(&args[1].v);
  static constexpr std::string_view kOnNode = " on node '";
  if (!operand || !message || message->empty() || message->back() != '\'') return;
  const size_t at = message->rfind(kOnNode);
  if (at != std::string::npos) *message = message->substr(0, at + kOnNode.size()) + operand->name + "'";
}

}  // namespace

void keep_known_sizes(ir::ValueInfo& inferred, const ir::ValueInfo& known) {
  if (known.sym_int() && inferred.sym_int()) {
    inferred = known;
    return;
  }
  if (auto* t = std::get_if<ir::TensorMeta>(&inferred.v)) {
    const ir::TensorMeta* k = known.tensor();
    if (!k || k->rank() != t->rank()) return;
    for (size_t i = 0; i < t->rank(); ++i)
      if (t->sizes[i].expr != k->sizes[i].expr) t->sizes[i] = k->sizes[i];
    return;
  }
  auto* tuple = std::get_if<std::shared_ptr<ir::ValueTuple>>(&inferred.v);
  const ir::ValueTuple* k = known.tuple();
  if (!tuple || !*tuple || !k || k->size() != (*tuple)->size()) return;
  auto items = **tuple;
  for (size_t i = 0; i < items.size(); ++i) keep_known_sizes(items[i], (*k)[i]);
  inferred = ir::ValueInfo::of_tuple(std::move(items));
}

Rewriter::Rewriter(ir::Graph& graph, const DecompositionTable& table, const Hints& hints, std::string pass)
    : graph_(graph), table_(table), hints_(hints), pass_(std::move(pass)), nodes_(graph), inference_(hints) {}

// ---- nodes ----------------------------------------------------------------------

ir::NodeMetadata Rewriter::meta_for_new_node() const {
  ir::NodeMetadata m = inherited_meta(scope_.origin, pass_);
  if (scope_.trace_override) {
    m.stack_trace = scope_.trace_override->stack_trace;
    m.custom = scope_.trace_override->custom;
  }
  if (scope_.annotation && !m.custom.count("custom")) m.custom["custom"] = *scope_.annotation;
  return m;
}

std::unique_ptr<ir::Node> Rewriter::new_node(ir::OpKind op, std::string_view name_candidate) {
  auto n = nodes_.make(op, name_candidate);
  n->meta = meta_override_ ? *meta_override_ : meta_for_new_node();
  return n;
}

ir::Node* Rewriter::place(std::unique_ptr<ir::Node> node) {
  // An operand a rule or the driver still holds may be a size node an
  // earlier one of the same value replaced.
  for (auto& [from, to] : forwarded_) node->replace_input(from, to);
  if (node->op == ir::OpKind::Placeholder) {
    ir::GraphBuilder::InsertionGuard guard(nodes_);
    nodes_.set_insertion_point(top_sym_sizes_.empty() ? body_begin_ : top_sym_sizes_.front().second);
    placeholders_.push_back(nodes_.insert(std::move(node)));
    return placeholders_.back();
  }
  // The program's own sym_size.int of an input joins the retrace's ones at
  // the top, in (input, dim) order: torch's retrace reads every input size there.
  if (!rebuilding_ && node->op == ir::OpKind::CallFunction &&
      node->target.qualified() == "torch.ops.aten.sym_size.int" && node->args().size() == 2) {
    const ir::Node* of = node->args()[0].node();
    const auto* dim = std::get_if<int64_t>(&node->args()[1].v);
    const auto at = std::find(placeholders_.begin(), placeholders_.end(), of);
    if (of && dim && *dim >= 0 && at != placeholders_.end())
      return place_top_size({size_t(at - placeholders_.begin()), size_t(*dim)}, std::move(node));
  }
  ir::Node* placed = nodes_.insert(std::move(node));
  if (!body_begin_) body_begin_ = placed;
  return placed;
}

ir::Node* Rewriter::place_top_size(std::pair<size_t, size_t> key, std::unique_ptr<ir::Node> node) {
  auto later = std::find_if(top_sym_sizes_.begin(), top_sym_sizes_.end(), [&](const auto& e) { return e.first > key; });
  ir::GraphBuilder::InsertionGuard guard(nodes_);
  nodes_.set_insertion_point(later == top_sym_sizes_.end() ? body_begin_ : later->second);
  ir::Node* placed = nodes_.insert(std::move(node));
  top_sym_sizes_.insert(later, {key, placed});
  return placed;
}

int Rewriter::commit() {
  // FX's eliminate_dead_code (torch's run_decompositions runs it on the
  // lowered graph), which keeps the size nodes torch's runtime-assert pass leaves.
  const int removed = ir::eliminate_dead_code(graph_, schemas_,
                                              [&](const ir::Node& n) { return kept_unused_.count(&n) > 0; });
  placeholders_.clear();
  top_sym_sizes_.clear();
  body_begin_ = nullptr;
  kept_unused_.clear();
  return removed;
}

ir::Node* Rewriter::add_placeholder(const ir::Node& source) {
  set_origin(&source);
  auto n = nodes_.make_exact(ir::OpKind::Placeholder, source.name);
  n->target = source.target;
  n->value = source.value;
  n->meta = source.meta;
  n->meta.provenance = inherited_meta(&source, pass_).provenance;
  ir::Node* placed = place(std::move(n));
  // As the program records it: parameters (and inputs made with requires_grad) require grad.
  const ir::TensorMeta* t = placed->value.tensor();
  requires_grad_.set(placed, t && t->requires_grad);
  return placed;
}

ir::Node* Rewriter::add_get_attr(const ir::Node& source) {
  set_origin(&source);
  auto n = nodes_.make_get_attr(source.name, source.attr);
  n->value = source.value;
  n->meta = source.meta;
  n->meta.provenance = inherited_meta(&source, pass_).provenance;
  return place(std::move(n));
}

ir::Node* Rewriter::add_output(ir::Argument value) {
  return place(nodes_.make_output(std::move(value)));
}

ir::Argument Rewriter::emit(const ir::Target& target, std::vector<ir::Argument> args,
                                std::vector<ir::NamedArgument> kwargs, const ir::ValueInfo* known, bool reinfer) {
  // Size arithmetic copied from the program whose value a node already
  // computes is that node (torch's runtime-assert pass hash-conses sizes).
  if (known && target.qualified().rfind("_operator.", 0) == 0)
    if (const auto* value = known->sym_int(); value && !value->expr.as_integer())
      if (auto it = sym_nodes_.find(value->expr); it != sym_nodes_.end()) {
        keep_operands_of_replaced(args);
        return it->second;
      }
  // Named once its value is inferred, as before any rule saw it: inference reports a nameless node.
  name_assert_operand(target, args);
  auto n = std::make_unique<ir::Node>();
  n->op = ir::OpKind::CallFunction;
  n->target = target;
  n->set_inputs(std::move(args), std::move(kwargs));
  if (known && !reinfer) {
    n->value = *known;
  } else {
    try {
      n->value = inference_.infer(*n);
      if (known) keep_known_sizes(n->value, *known);
    } catch (const MetaInferenceError& e) {
      if (known) n->value = *known;
      else warn(std::string(e.what()) + " (its value is unknown)");
    }
  }
  n->name = nodes_.name(name_candidate(target));
  n->meta = meta_for_new_node();
  ir::Node* placed = place(std::move(n));
  const bool autograd_level = requires_grad_.at_autograd_level() && target.is_torch_op();
  if (placed->value.tuple()) {
    ir::Argument items = add_getitems(placed);
    for (const auto& item : items.list()->items) note_size_producer(item.node(), *placed);
    if (autograd_level) requires_grad_.note_call(op_key(target), tensor_inputs(placed->args(), placed->kwargs()), items);
    return items;
  }
  if (autograd_level) requires_grad_.note_call(op_key(target), tensor_inputs(placed->args(), placed->kwargs()), placed);
  if (placed->value.sym_int()) remember_sym(placed);
  note_size_producer(placed, *placed);
  return placed;
}

bool Rewriter::computes_sizes_in_meta(const ir::Target& target) {
  if (!target.is_torch_op()) return false;
  const std::string name = target.op_name();
  for (const char* prefix : {"conv", "max_pool", "avg_pool"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

void Rewriter::adopt_value(ir::Argument& result, const ir::ValueInfo& source) {
  ir::Node* n = result.node();
  if (!n) return;
  std::vector<symbolic::Expr> inferred;
  if (const ir::TensorMeta* t = n->value.tensor())
    for (const auto& d : t->sizes) inferred.push_back(d.expr);
  keep_known_sizes(n->value, source);
  // A size the shape rules could not tell (a view whose -1 torch's meta
  // resolved to the program's own expression) has its origin noted anew, as
  // it would have been had inference known it.
  const ir::TensorMeta* t = n->value.tensor();
  if (!t || t->sizes.size() != inferred.size()) return;
  const ir::Node& op = n->target.is_getitem() && n->args()[0].node() ? *n->args()[0].node() : *n;
  const bool spatial_in_meta = computes_sizes_in_meta(op.target);
  for (size_t d = 0; d < inferred.size(); ++d)
    if (t->sizes[d].expr != inferred[d]) note_size_origin(n, d, op, spatial_in_meta);
}

void Rewriter::note_size_producer(ir::Node* n, const ir::Node& op) {
  const ir::TensorMeta* t = n->value.tensor();
  if (!t) return;
  const bool spatial_in_meta = computes_sizes_in_meta(op.target);
  for (size_t d = 0; d < t->sizes.size(); ++d) note_size_origin(n, d, op, spatial_in_meta);
}

void Rewriter::note_size_origin(ir::Node* n, size_t d, const ir::Node& op, bool spatial_in_meta) {
  // A tensor output's size is a new value where the op's meta computes it
  // (conv / pool spatial sizes, even when equal to the input's) or where no
  // tensor input has that size (cat's sum); other sizes are an operand's own,
  // the first operand's that holds it (torch's broadcasting keeps the first
  // size that is not 1), and keep that operand's origin.
  const ir::TensorMeta* t = n->value.tensor();
  const symbolic::Expr& e = t->sizes[d].expr;
  // A symbol is an input's size, except where the inputs hold only a
  // multiple of it (a derived Dim: x is [4*h], the conv's output [h]).
  if (e.as_integer() || (e.is_symbol() && input_dim_holding(e))) return;
  ir::Node* origin = nullptr;
  bool held = false;
  if (!(spatial_in_meta && d >= 2)) {
    op.for_each_input([&](const ir::Node* in) {
      const ir::TensorMeta* m = in->value.tensor();
      if (held || !m) return;
      std::optional<size_t> at;
      if (d < m->sizes.size() && m->sizes[d].expr == e) at = d;
      for (size_t i = 0; !at && i < m->sizes.size(); ++i)
        if (m->sizes[i].expr == e) at = i;
      if (!at) return;
      held = true;
      if (auto o = size_origins_.find(in); o != size_origins_.end()) origin = o->second[*at];
    });
  }
  if (!held) {
    origin = n;
    size_producers_[e] = n;
  }
  if (!origin) return;
  auto& origins = size_origins_[n];
  origins.resize(t->sizes.size(), nullptr);
  origins[d] = origin;
}

ir::Node* Rewriter::origin_of_use(const symbolic::Expr& size) const {
  // The innermost rule's operands first: a composite reads the sizes of the
  // tensors it is given.
  for (auto frame = call_args_.rbegin(); frame != call_args_.rend(); ++frame) {
    // A size the rule was given as an argument is that argument's value.
    bool given = false;
    for (const auto& a : **frame)
      a.for_each_node([&](const ir::Node* in) {
        const auto* v = in->value.sym_int();
        given = given || (v && v->expr == size);
      });
    if (given) return nullptr;
    ir::Node* found = nullptr;
    for (const auto& a : **frame)
      a.for_each_node([&](const ir::Node* in) {
        if (found) return;
        auto o = size_origins_.find(in);
        if (o == size_origins_.end()) return;
        const auto& sizes = in->value.tensor()->sizes;
        for (size_t d = 0; d < sizes.size() && !found; ++d)
          if (o->second[d] && sizes[d].expr == size) found = o->second[d];
      });
    if (found) return found;
  }
  return nullptr;
}

bool Rewriter::placed_at_or_after(const ir::Node* n, const ir::Node* position) {
  return position && n->index() >= position->index();
}

void Rewriter::keep_operands_of_replaced(const std::vector<ir::Argument>& operands) {
  // The pass erases the replaced node, not its operands: a size node only it
  // used stays in the graph, unused (torch does not remove it).
  for (const auto& a : operands)
    a.for_each_node([&](ir::Node* in) {
      if (in->value.sym_int() && in->op == ir::OpKind::CallFunction) kept_unused_.insert(in);
    });
}

void Rewriter::forward_uses(ir::Node* from, ir::Node* to) {
  graph_.replace_all_uses_with(from, to);
  // torch's pass reaches the earlier node first and erases this one (the
  // hash-consed users it lost to it had lost it already).
  kept_unused_.erase(from);
  for (auto& [old, now] : forwarded_)
    if (now == from) now = to;
  forwarded_[from] = to;
}

ir::Node* Rewriter::position_after(const ir::Node* producer) const {
  // After the producer and, for a getitem, its siblings (make_fx makes them
  // all at once), and after the sizes already rebuilt there.
  if (auto it = last_rebuilt_after_.find(producer); it != last_rebuilt_after_.end()) return it->second->next();
  const ir::Node* parent = producer->target.is_getitem() ? producer->args()[0].node() : nullptr;
  ir::Node* at = producer->next();
  while (parent && at && at->target.is_getitem() && at->args()[0].node() == parent) at = at->next();
  return at;
}

bool Rewriter::placed_before_insertion(const ir::Node* n) const {
  if (!rebuilding_ || n->op == ir::OpKind::Placeholder) return true;
  return !placed_at_or_after(n, nodes_.insertion_point());
}

ir::Argument Rewriter::add_getitems(ir::Node* parent) {
  ir::ArgumentList items{{}, true};
  const ir::ValueTuple& values = *parent->value.tuple();
  for (size_t i = 0; i < values.size(); ++i) {
    auto g = new_node(ir::OpKind::CallFunction, "getitem");
    g->target = ir::Target("_operator.getitem");
    g->set_args({ir::Argument(parent), ir::Argument(int64_t(i))});
    g->value = values[i];
    items.items.push_back(ir::Argument(place(std::move(g))));
  }
  return items;
}

// ---- calls and rules --------------------------------------------------------------

const DecompositionRule* Rewriter::rule_for(std::string_view op) const {
  if (const DecompositionRule* r = table_.find(op)) return r;
  return functionalization_rules().find(op);
}

bool Rewriter::decomposes(std::string_view op) const { return rule_for(op) != nullptr; }

ir::Argument Rewriter::call(std::string_view op, std::vector<ir::Argument> args,
                                std::vector<ir::NamedArgument> kwargs) {
  const DecompositionRule* rule = rule_for(op);
  if (!rule || depth_ >= kMaxRuleDepth) {
    if (rule) warn(std::string(op) + ": decomposition nests deeper than " + std::to_string(kMaxRuleDepth));
    return emit(op_target(op), std::move(args), std::move(kwargs));
  }
  OpCall c{op_target(op), args, kwargs};
  // torch runs the composites it decomposes at every level through autograd,
  // other rules below it (requires_grad.h).
  const bool below = requires_grad_.at_autograd_level() && !functionalization_rules().find(op);
  const std::vector<const ir::Node*> inputs = below ? tensor_inputs(args, kwargs) : std::vector<const ir::Node*>{};
  struct BelowAutograd {  // left on every way out of the rule, exceptions included
    RequiresGrad* g;
    explicit BelowAutograd(RequiresGrad* r) : g(r) {
      if (g) g->enter_below();
    }
    ~BelowAutograd() {
      if (g) g->leave_below();
    }
  };
  std::optional<ir::Argument> result;
  ++depth_;
  call_args_.push_back(&args);
  try {
    BelowAutograd scope(below ? &requires_grad_ : nullptr);
    result = rule->fn(*this, c);
    ++rules_applied_;
  } catch (const DecompositionError& e) {
    warn(std::string(e.what()) + (scope_.origin ? " (node " + scope_.origin->name + ")" : "") + "; kept as is");
  } catch (const MetaInferenceError& e) {
    warn(std::string(op) + ": " + e.what() + (scope_.origin ? " (node " + scope_.origin->name + ")" : "") + "; kept as is");
  }
  call_args_.pop_back();
  --depth_;
  if (result) {
    if (below) requires_grad_.note_call(op, inputs, *result);
    return *result;
  }
  return emit(op_target(op), std::move(args), std::move(kwargs));
}

ir::Node* Rewriter::call1(std::string_view op, std::vector<ir::Argument> args,
                              std::vector<ir::NamedArgument> kwargs) {
  ir::Argument r = call(op, std::move(args), std::move(kwargs));
  if (ir::Node* n = r.node()) return n;
  throw DecompositionError(std::string(op) + ": expected one result, got a tuple");
}

std::vector<ir::Node*> Rewriter::call_n(std::string_view op, std::vector<ir::Argument> args,
                                            std::vector<ir::NamedArgument> kwargs) {
  ir::Argument r = call(op, std::move(args), std::move(kwargs));
  const ir::ArgumentList* l = r.list();
  if (!l) throw DecompositionError(std::string(op) + ": expected several results");
  std::vector<ir::Node*> out;
  for (const auto& item : l->items) out.push_back(item.node());
  return out;
}

void Rewriter::mutate(ir::Node* target, ir::Node* new_value) {
  if (!on_mutation_) throw DecompositionError("a rule mutates '" + target->name + "' outside a lowering");
  on_mutation_(target, new_value);
}

// ---- values -----------------------------------------------------------------------

const ir::TensorMeta& Rewriter::meta(const ir::Node* n) const {
  const ir::TensorMeta* t = n ? n->value.tensor() : nullptr;
  if (!t) throw DecompositionError("value '" + (n ? n->name : std::string("?")) + "' is not a known tensor");
  return *t;
}

bool Rewriter::is_contiguous(const ir::Node* n) const {
  const ir::TensorMeta& m = meta(n);
  return passes::is_contiguous(m.sizes, m.strides, hints_);
}

// ---- symbolic ints as arguments --------------------------------------------------------

void Rewriter::remember_sym(ir::Node* n) {
  // A node rebuilt before an existing one of the same value takes its place for later uses.
  if (const auto* s = n->value.sym_int()) {
    auto [it, fresh] = sym_nodes_.emplace(s->expr, n);
    if (fresh || !rebuilding_ || it->second == n) return;
    // Rebuilt before a later node of the same value: that one is replaced.
    if (!placed_before_insertion(it->second)) forward_uses(it->second, n);
    it->second = n;
  }
}

ir::Argument Rewriter::sym(const ir::SymInt& s) {
  if (auto v = s.expr.as_integer()) return *v;
  return materialize(s);
}

ir::Argument Rewriter::sym_list(const Dims& dims) {
  ir::ArgumentList l;
  for (const auto& d : dims) l.items.push_back(sym(d));
  return l;
}

ir::Argument Rewriter::sym_add_args(const ir::SymInt& a, const ir::SymInt& b) {
  const ir::SymInt sum = sym_add(a, b);
  if (auto v = sum.expr.as_integer()) return *v;
  if (a.expr.as_integer() == std::optional<int64_t>(0)) return sym(b);
  ir::Argument lhs = sym(a), rhs = sym(b);  // read before the sum is hash-consed
  if (auto it = sym_nodes_.find(sum.expr); it != sym_nodes_.end()) return it->second;
  return sym_binary("add", std::move(lhs), std::move(rhs), hints_.sym(sum.expr));
}

ir::Argument Rewriter::sym_inferred_size(const Dims& numel_dims, const Dims& known_dims,
                                             const ir::SymInt& quotient) {
  if (auto v = quotient.expr.as_integer()) return *v;
  const ir::Argument numel = sym_product(numel_dims);
  const ir::Argument known = sym_product(known_dims);
  if (auto it = sym_nodes_.find(quotient.expr); it != sym_nodes_.end()) {
    // torch's retrace made the floordiv, and its runtime-assert pass replaced it by the earlier node.
    keep_operands_of_replaced({numel, known});
    return it->second;
  }
  return sym_binary("floordiv", numel, known, quotient);
}

ir::Argument Rewriter::sym_operator(const char* op, ir::Argument a, ir::Argument b, const ir::SymInt& value) {
  if (auto v = value.expr.as_integer()) return *v;
  return sym_binary(op, std::move(a), std::move(b), hints_.sym(value.expr));
}

ir::Node* Rewriter::sym_binary(const char* op, ir::Argument a, ir::Argument b, const ir::SymInt& value,
                                   bool hash_cons) {
  auto n = new_node(ir::OpKind::CallFunction, op);
  n->target = ir::Target(std::string("_operator.") + op);
  n->set_args({std::move(a), std::move(b)});
  n->value = ir::ValueInfo::of(value);
  ir::Node* placed = place(std::move(n));
  if (hash_cons) remember_sym(placed);
  return placed;
}

std::optional<std::pair<size_t, size_t>> Rewriter::input_dim_holding(const symbolic::Expr& symbol) const {
  for (size_t index = 0; index < placeholders_.size(); ++index)
    if (const ir::TensorMeta* t = placeholders_[index]->value.tensor())
      for (size_t d = 0; d < t->sizes.size(); ++d)
        if (t->sizes[d].expr == symbol) return std::make_pair(index, d);
  return std::nullopt;
}

ir::Node* Rewriter::sym_size_node(const symbolic::Expr& symbol) {
  if (const auto at = input_dim_holding(symbol)) {
    const auto [index, d] = *at;
    ir::Node* p = placeholders_[index];
    auto n = nodes_.make(ir::OpKind::CallFunction, "sym_size_int");
    n->target = ir::Target("torch.ops.aten.sym_size.int");
    n->set_args({ir::Argument(p), ir::Argument(int64_t(d))});
    n->value = ir::ValueInfo::of(hints_.sym(symbol));
    n->meta.provenance = inherited_meta(scope_.origin, pass_).provenance;  // no stack trace, as torch
    ir::Node* placed = place_top_size({index, d}, std::move(n));
    remember_sym(placed);
    return placed;
  }
  // Only an intermediate holds it (a derived Dim's root): torch asks the
  // tensor that made it, right after it (materialize places us there).
  const auto p = size_producers_.find(symbol);
  const ir::TensorMeta* t = p != size_producers_.end() ? p->second->value.tensor() : nullptr;
  for (size_t d = 0; t && d < t->sizes.size(); ++d) {
    if (t->sizes[d].expr != symbol) continue;
    auto n = new_node(ir::OpKind::CallFunction, "sym_size_int");
    n->target = ir::Target("torch.ops.aten.sym_size.int");
    n->set_args({ir::Argument(p->second), ir::Argument(int64_t(d))});
    n->value = ir::ValueInfo::of(hints_.sym(symbol));
    ir::Node* placed = place(std::move(n));
    remember_sym(placed);
    return placed;
  }
  throw DecompositionError("no input size holds the symbol " + symbol.str());
}

ir::Argument Rewriter::sym_product(const Dims& dims, size_t begin, size_t end) {
  // c10::multiply_integers: acc = acc * d from 1, in the dims' order, a node
  // for each step that is symbolic (1 * d is d itself).
  ir::SymInt acc(int64_t{1});
  ir::Argument arg = int64_t{1};
  for (size_t i = begin; i < dims.size() && i < end; ++i) {
    const ir::SymInt next = sym_mul(acc, dims[i]);
    if (auto v = next.expr.as_integer()) {
      arg = *v;
    } else {
      // The factor is read even where the product is known: its size node
      // is made (after its origin) before the product is hash-consed.
      const ir::Argument factor = sym(dims[i]);
      if (acc.expr.as_integer() == std::optional<int64_t>(1)) arg = factor;
      else if (auto it = sym_nodes_.find(next.expr); it != sym_nodes_.end()) arg = it->second;
      else arg = sym_binary("mul", arg, factor, hints_.sym(next.expr));
    }
    acc = next;
  }
  return arg;
}

ir::Node* Rewriter::materialize(const ir::SymInt& s) {
  auto known = sym_nodes_.find(s.expr);
  const bool known_before = known != sym_nodes_.end() && placed_before_insertion(known->second);
  if (rebuilding_) return known_before ? known->second : build_size(s);
  // A size read from an operand is the value its origin made: torch's
  // retrace asks that tensor for it right after the origin (the functional
  // wrapper of each output compares its sizes), and its runtime-assert pass
  // keeps the first node in graph order that computes the expression. So a
  // node computing it after the origin (the program's own size arithmetic,
  // a rebuild after a later origin) gives way to a rebuild after the origin.
  ir::Node* origin = origin_of_use(s.expr);
  if (known_before && (!origin || !placed_at_or_after(known->second, position_after(origin)))) return known->second;
  ir::Node* producer = origin;
  if (!producer)
    if (auto p = size_producers_.find(s.expr); p != size_producers_.end()) producer = p->second;
  if (!producer) return build_size(s);
  // Rebuilt right after the node that made it, as torch's runtime-assert
  // pass replaces the sym_size.int its retrace asked of that node.
  ir::GraphBuilder::InsertionGuard guard(nodes_);
  SaveAndRestore<bool> rebuilding(rebuilding_, true);
  SaveAndRestore<const ir::NodeMetadata*> meta(meta_override_, &producer->meta);
  nodes_.set_insertion_point(position_after(producer));
  ir::Node* n = build_size(s);
  const ir::Node* at = nodes_.insertion_point();
  last_rebuilt_after_[producer] = at ? at->prev() : graph_.back();
  return n;
}

ir::Node* Rewriter::build_size(const ir::SymInt& s) {
  using K = symbolic::Expr::Kind;
  const symbolic::Expr& e = s.expr;
  switch (e.kind()) {
    case K::Symbol: return sym_size_node(e);
    case K::Mul:
    case K::Add: {
      // torch's runtime-assert pass rebuilds a size from its sympy form
      // (sympy_interp): every term first, then the numeric term and the
      // others left to right, one binary operator.mul / operator.add node
      // per step ("-1 + sym_size_int_1", "1 + floordiv", "5 * sym_size_int").
      const bool product = e.kind() == K::Mul;
      const char* op = product ? "mul" : "add";
      std::vector<symbolic::Expr> terms;
      for (const auto& t : e.args())
        if (t.as_integer()) terms.insert(terms.begin(), t);
        else terms.push_back(t);
      // The partial results are not hash-consed (sympy_interp caches an
      // expression and its arguments, not the steps of its n-ary reduce): a
      // later node of a partial's value stays.
      std::vector<ir::Argument> operands;
      for (const auto& t : terms) operands.push_back(sym(hints_.sym(t)));
      ir::Argument acc;
      symbolic::Expr partial(product ? 1 : 0);
      for (size_t i = 0; i < terms.size(); ++i) {
        partial = product ? partial * terms[i] : partial + terms[i];
        const bool last = i + 1 == terms.size();
        acc = i == 0 ? operands[i] : ir::Argument(sym_binary(op, acc, operands[i], hints_.sym(partial), last));
      }
      return acc.node();
    }
    case K::FloorDiv:
      return sym_binary("floordiv", sym(hints_.sym(e.args()[0])), sym(hints_.sym(e.args()[1])), s);
    case K::Mod: return sym_binary("mod", sym(hints_.sym(e.args()[0])), sym(hints_.sym(e.args()[1])), s);
    case K::Pow: {
      ir::Argument base = sym(hints_.sym(e.args()[0]));
      ir::Argument acc = base;
      const int64_t k = e.args()[1].as_integer().value_or(1);
      symbolic::Expr partial = e.args()[0];
      for (int64_t i = 1; i < k; ++i) {
        partial = partial * e.args()[0];
        acc = sym_binary("mul", acc, base, hints_.sym(partial));
      }
      return acc.node();
    }
    default: break;
  }
  throw DecompositionError("cannot compute the size " + e.str() + " in the graph");
}

}  // namespace exportlens::passes

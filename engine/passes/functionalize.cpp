#include "engine/passes/functionalize.h"

#include <algorithm>
#include <map>

#include "engine/passes/view_ops.h"

namespace exportlens::passes {

namespace {

/// In-place ops whose functional form is not simply the name without "_".
const std::map<std::string, std::string, std::less<>>& special_functional_forms() {
  static const std::map<std::string, std::string, std::less<>> m = {
      {"aten.normal_.default", "aten.normal_functional.default"},
      {"aten.bernoulli_.float", "aten.bernoulli.p"},
      {"aten._native_batch_norm_legit.default", "aten._native_batch_norm_legit_functional.default"},
  };
  return m;
}

bool is_dunder(std::string_view name) { return name.size() > 4 && name.rfind("__", 0) == 0; }

}  // namespace

std::optional<std::string> functional_variant(std::string_view key) {
  if (auto it = special_functional_forms().find(key); it != special_functional_forms().end()) return it->second;
  const size_t first = key.find('.'), last = key.rfind('.');
  if (first == std::string_view::npos || last == first) return std::nullopt;
  // Only ATen's in-place ops are named after their functional form: a custom
  // op's trailing "_" says nothing (torch functionalizes it from its schema,
  // into auto_functionalized_v2), and the name without it is no op.
  if (key.substr(0, first) != "aten") return std::nullopt;
  const std::string_view name = key.substr(first + 1, last - first - 1);
  if (name.size() < 2 || name.back() != '_' || is_dunder(name)) return std::nullopt;
  return std::string(key.substr(0, first + 1)) + std::string(name.substr(0, name.size() - 1)) +
         std::string(key.substr(last));
}

// ---- bindings ---------------------------------------------------------------------

const ir::Node* Functionalizer::root_of(const ir::Node* old) const {
  for (auto it = views_.find(old); it != views_.end(); it = views_.find(old)) old = it->second.base;
  return old;
}

std::vector<Functionalizer::Link> Functionalizer::chain_of(const ir::Node* old) const {
  std::vector<Link> chain;
  for (auto it = views_.find(old); it != views_.end(); it = views_.find(old)) {
    if (!it->second.alias) chain.push_back(Link{old, it->second});
    old = it->second.base;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

void Functionalizer::bind(const ir::Node* old, ir::Argument value) {
  Binding& binding = env_[old];
  if (const ir::Node* before = binding.value.node()) {
    auto& olds = stands_for_[before];
    olds.erase(std::remove(olds.begin(), olds.end(), old), olds.end());
    if (olds.empty()) stands_for_.erase(before);
  }
  if (const ir::Node* now = value.node()) stands_for_[now].push_back(old);
  binding = Binding{std::move(value), versions_[root_of(old)]};
}

void Functionalizer::note_view(const ir::Node* old) {
  if (!old->args().empty())
    if (const ir::Node* base = old->args()[0].node()) views_[old] = ViewOf{base, false};
}

void Functionalizer::note_alias(const ir::Node* old, const ir::Node* of) { views_[old] = ViewOf{of, true}; }

void Functionalizer::note_detached_view(const ir::Node* old, ir::Node* view, ir::Node* detached) {
  const ir::Node* base = old->args().empty() ? nullptr : old->args()[0].node();
  if (!base) return;
  // The view op's node stands for itself, a view of the base made by this op.
  views_[view] = ViewOf{base, false, view};
  bind(view, ir::Argument(view));
  views_[old] = ViewOf{view, false, detached};
  bind(old, ir::Argument(detached));
}

void Functionalizer::note_view_output(const ir::Node* old, const ir::Node* parent, int64_t index) {
  if (!parent->args().empty())
    if (const ir::Node* base = parent->args()[0].node()) views_[old] = ViewOf{base, false, nullptr, parent, index};
}

ir::Argument Functionalizer::value_of(const ir::Node* old) {
  auto it = env_.find(old);
  if (it == env_.end()) throw DecompositionError("node '" + old->name + "' is used before it is lowered");
  if (auto v = views_.find(old); v != views_.end()) {
    // An alias (an in-place op's result) is whatever its base is now: a
    // mutated view's is its regenerated view.
    if (v->second.alias) return value_of(v->second.base);
    const int current = versions_[root_of(old)];
    if (it->second.root_version != current) {
      ir::Argument fresh = regenerate(old);
      bind(old, fresh);
      return fresh;
    }
  }
  return it->second.value;
}

ir::Argument Functionalizer::map(const ir::Argument& a) {
  if (const ir::Node* n = a.node()) return value_of(n);
  if (const ir::ArgumentList* l = a.list()) {
    ir::ArgumentList out{{}, l->is_tuple};
    for (const auto& item : l->items) out.items.push_back(map(item));
    return out;
  }
  return a;
}

// ---- views --------------------------------------------------------------------------

bool Functionalizer::note_view_made_by_rule(const ir::Node* old) {
  auto it = env_.find(old);
  if (it == env_.end()) return false;
  const ir::Node* made = it->second.value.node();
  if (!made || made->op != ir::OpKind::CallFunction || made->args().empty()) return false;
  const ViewOp* view = find_view_op(made->target);
  if (!view || !view->write_back || view->identity) return false;
  const ir::Node* base = made->args()[0].node();
  if (!base || base->op != ir::OpKind::CallFunction) return false;
  // Only the rule's own intermediate: a value standing for a node of the
  // input program is tracked (or not a view) at the program's level.
  if (stands_for_.count(base)) return false;
  bind(base, ir::Argument(const_cast<ir::Node*>(base)));
  views_[old] = ViewOf{base, false, made};
  return true;
}

const ir::Node* Functionalizer::track_root(const ir::Node* old) {
  for (;;) {
    auto it = views_.find(old);
    if (it == views_.end()) {
      // The top of the chain may be a view a rule made (matmul's fold), of a
      // view that rule made (a squeeze of it): each is a view of the next.
      if (!note_view_made_by_rule(old)) return old;
      it = views_.find(old);
    }
    old = it->second.base;
  }
}

ir::Argument Functionalizer::apply_again(const ir::Node* op, ir::Argument base) {
  std::vector<ir::Argument> args{std::move(base)};
  for (size_t i = 1; i < op->args().size(); ++i) args.push_back(map(op->args()[i]));
  std::vector<ir::NamedArgument> kwargs;
  for (const auto& kw : op->kwargs()) kwargs.push_back({kw.name, map(kw.value)});
  const std::string key = op_key(op->target);
  if (b_.decomposes(key)) return b_.call(key, std::move(args), std::move(kwargs));
  // Made again as it is, it has the node's sizes, where no shape rule tells them (diagonal).
  return b_.emit(op->target, std::move(args), std::move(kwargs), &op->value, /*reinfer=*/true);
}

ir::Argument Functionalizer::replay(const Link& link, ir::Argument base) {
  if (link.how.multi) return replay_output(link, std::move(base));
  if (!link.how.made) return apply_again(link.view, std::move(base));
  // A rule's view: its arguments are values of the new graph already.
  const ir::Node* made = link.how.made;
  std::vector<ir::Argument> args{std::move(base)};
  args.insert(args.end(), made->args().begin() + 1, made->args().end());
  return b_.call(op_key(made->target), std::move(args), made->kwargs());
}

ir::Argument Functionalizer::replay_output(const Link& link, ir::Argument base) {
  // As torch regenerates it: the multi-output op again, then the output's getitem.
  const ir::Node* op = link.how.multi;
  ir::Argument outputs = apply_again(op, std::move(base));
  if (const ir::ArgumentList* l = outputs.list()) {
    if (link.how.output < 0 || size_t(link.how.output) >= l->items.size())
      throw DecompositionError("'" + link.view->name + "': " + op_key(op->target) + " has no output " +
                               std::to_string(link.how.output));
    return l->items[size_t(link.how.output)];
  }
  return b_.emit(link.view->target, {outputs, link.how.output}, {}, &link.view->value);
}

ir::Argument Functionalizer::regenerate(const ir::Node* view, bool in_current_op) {
  // As torch's regenerate_from_base: every view op from the root, made again
  // (the views between keep their own values until they are read).
  const ir::Node* saved = b_.origin();
  if (!in_current_op && !in_current_op_) b_.set_origin(view);
  ir::Argument value = value_of(root_of(view));
  for (const Link& link : chain_of(view)) value = replay(link, value);
  b_.set_origin(saved);
  return value;
}

ir::Argument Functionalizer::scatter_into(const Link& link, ir::Argument base_value, ir::Argument src) {
  const ir::Node* shape = link.how.multi ? link.how.multi : link.how.made ? link.how.made : link.view;
  const ViewOp* op = link.how.multi ? find_multi_output_view_op(shape->target) : find_view_op(shape->target);
  const ir::Node* mutating = b_.origin();
  const std::string what = "'" + (mutating ? mutating->name : std::string("?")) + "' mutates '" + link.view->name +
                           "', a view made by " + op_key(shape->target) + ": ";
  if (!op || !op->write_back)
    throw DecompositionError(what + "mutation through a " + shape->target.op_name() + " view is not functionalized");
  auto arg = [&](size_t i, ir::Argument fallback) {
    if (i >= shape->args().size()) return fallback;
    return link.how.made ? shape->args()[i] : map(shape->args()[i]);
  };
  try {
    return op->write_back(WriteBackCall{b_, std::move(base_value), std::move(src), arg, link.how.output});
  } catch (const DecompositionError& e) {
    throw DecompositionError(what + e.what());  // which view, for a write-back that cannot be made
  }
}

// ---- mutation -------------------------------------------------------------------------

void Functionalizer::assign(const ir::Node* old, ir::Argument value) {
  const ir::Node* root = track_root(old);
  const std::vector<Link> chain = chain_of(old);
  if (!chain.empty()) {
    // As torch's apply_update: the views between the root and the mutated one
    // made again from the root's value, then each view's inverse, innermost first.
    std::vector<ir::Argument> bases{value_of(root)};
    for (size_t i = 0; i + 1 < chain.size(); ++i) bases.push_back(replay(chain[i], bases.back()));
    for (size_t i = chain.size(); i-- > 0;) value = scatter_into(chain[i], bases[i], std::move(value));
  }
  ++versions_[root];
  if (root->op == ir::OpKind::Placeholder &&
      std::find(mutated_roots_.begin(), mutated_roots_.end(), root) == mutated_roots_.end())
    mutated_roots_.push_back(root);
  bind(root, std::move(value));
  // torch syncs the mutated view right away, from its new base, in the
  // mutating op (its stack trace).
  if (!chain.empty()) bind(chain.back().view, regenerate(chain.back().view, /*in_current_op=*/true));
}

void Functionalizer::assign_new(const ir::Node* target, ir::Node* value) {
  auto found = stands_for_.find(target);
  if (found == stands_for_.end()) throw DecompositionError("a rule mutates '" + target->name + "', which stands for no input value");
  std::vector<const ir::Node*> olds = found->second;
  // Roots first: assigning a root bumps its version, which its views then follow.
  std::stable_sort(olds.begin(), olds.end(), [&](const ir::Node* a, const ir::Node* b) {
    return (views_.count(a) == 0) > (views_.count(b) == 0);
  });
  assign(olds.front(), value);
  for (size_t i = 1; i < olds.size(); ++i) bind(olds[i], value);
}

std::vector<std::pair<const ir::Node*, ir::Node*>> Functionalizer::mutated_inputs(
    const std::vector<ir::Node*>& placeholders) {
  std::vector<std::pair<const ir::Node*, ir::Node*>> out;
  for (const ir::Node* p : placeholders)
    if (std::find(mutated_roots_.begin(), mutated_roots_.end(), p) != mutated_roots_.end())
      out.emplace_back(p, value_of(p).node());
  return out;
}

}  // namespace exportlens::passes

#pragma once
// Functionalization: removing mutation and aliasing while a program is
// lowered (torch's FunctionalTensor, as run_decompositions applies it).
//
//  * an in-place op becomes its functional form (relu_ -> relu, add_ -> add,
//    copy_ -> copy, _native_batch_norm_legit -> ..._functional), and every
//    later use of the mutated tensor reads the new value;
//  * a mutation through a chain of views writes back into the chain's root
//    as torch's apply_update does: the views between made again from the
//    root, then each view's inverse from the innermost out (select_scatter,
//    slice_scatter, view, permute, ...: view_ops.h); the mutated view is made
//    again from the new root at once, and every other view of that root,
//    view op by view op from the root, when next read (as torch's
//    FunctionalTensorWrapper syncs a view whose storage changed);
//  * an output of a multi-output view op (split, split_with_sizes, chunk,
//    unbind), taken by getitem, is a view of the op's input: written back
//    with slice_scatter / select_scatter, made again as the op and its getitem;
//  * a value a rule made as a view of its own intermediate (matmul's fold:
//    _unsafe_view(mm, [b, s, d]), or a view of such a view) is a view too: a mutation writes back into
//    that intermediate (view(add, [s*b, d])) and the value is read again
//    through a regenerated view, as torch's functionalization sees the view
//    the decomposition made;
//  * a view autograd hands out detached (view.dtype) is that view op, then a
//    detach of it: two links of the chain, the detach's inverse the identity;
//  * an input whose value changed (a buffer, a user input) is returned as an
//    extra output: BUFFER_MUTATION / USER_INPUT_MUTATION in the signature.
//
// The Functionalizer holds the map from nodes of the input program to the
// values that stand for them in the graph being built.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/ir/node.h"
#include "engine/passes/rewriter.h"

namespace exportlens::passes {

/// The functional form of an in-place op ("aten.relu_.default" ->
/// "aten.relu.default"), or nullopt when the op does not mutate its self
/// (or is no ATen op: a custom op's name says nothing of its schema).
std::optional<std::string> functional_variant(std::string_view op_key);

class Functionalizer {
 public:
  explicit Functionalizer(Rewriter& builder) : b_(builder) {}

  /// `old` (a node of the input program) is now represented by `value`.
  void bind(const ir::Node* old, ir::Argument value);
  /// `old` is a view of its first argument (or, for an in-place op's own
  /// result, an alias of the tensor it mutated).
  void note_view(const ir::Node* old);
  void note_alias(const ir::Node* old, const ir::Node* of);
  /// `old`'s value is `detached`, a detach of `view`, which applied `old`'s
  /// view op (view.dtype) to `old`'s first argument: two views, as torch's
  /// functionalization sees a view autograd detached.
  void note_detached_view(const ir::Node* old, ir::Node* view, ir::Node* detached);
  /// `old` (a getitem) is output `index` of `parent`, a multi-output view op
  /// (split, unbind, ...): a view of the parent's first argument.
  void note_view_output(const ir::Node* old, const ir::Node* parent, int64_t index);

  /// From here on a view whose base changed is made again in the node being
  /// lowered (the output's: torch's sync there has no stack trace), not in its own.
  void regenerate_in_current_op() { in_current_op_ = true; }

  /// The current value of `old`, regenerating a view whose base changed.
  ir::Argument value_of(const ir::Node* old);
  /// An argument of the input program, mapped (lists recursively).
  ir::Argument map(const ir::Argument& a);

  /// `old` now holds `value` (an in-place op wrote it): rebinds it and
  /// writes through to its bases.
  void assign(const ir::Node* old, ir::Argument value);
  /// A rule reported that `target`, a node of the new graph, now holds `value`.
  void assign_new(const ir::Node* target, ir::Node* value);

  /// The tensor whose storage `old` shares at the root of its views and
  /// aliases (`old` itself for a tensor of its own), and whether `old` is a
  /// view of it rather than the tensor or an alias.
  const ir::Node* base_of(const ir::Node* old) const { return root_of(old); }
  bool is_view(const ir::Node* old) const { return !chain_of(old).empty(); }

  /// Inputs of the input program whose value changed, in placeholder order,
  /// with their final values.
  std::vector<std::pair<const ir::Node*, ir::Node*>> mutated_inputs(
      const std::vector<ir::Node*>& placeholders);

 private:
  struct Binding {
    ir::Argument value;
    int root_version = 0;  // the root's version this value was computed at
  };
  struct ViewOf {
    const ir::Node* base;
    bool alias;  // identity (an in-place op's result), not a view op
    // The view node of the new graph a rule made (its arguments are values of
    // the new graph), when `base` is that rule's own intermediate; else null
    // (the view is the input program's node, its arguments are mapped).
    const ir::Node* made = nullptr;
    // For an output of a multi-output view op: that op's node of the input
    // program (the view is its getitem), and which output.
    const ir::Node* multi = nullptr;
    int64_t output = 0;
  };
  /// One view op of a chain from a root: `view` is a view of `how.base`.
  struct Link {
    const ir::Node* view;
    ViewOf how;
  };
  /// Whether `old`'s value is a view a rule made of its own intermediate
  /// (noted as a view of that intermediate).
  bool note_view_made_by_rule(const ir::Node* old);
  const ir::Node* root_of(const ir::Node* old) const;
  /// root_of, noting on the way the views rules made (a rule's view of a rule's view).
  const ir::Node* track_root(const ir::Node* old);
  /// The view ops from `old`'s root to `old`, root first (aliases left out).
  std::vector<Link> chain_of(const ir::Node* old) const;
  /// `op`, a node of the input program, applied again to `base`, its other
  /// arguments mapped: by its rule where this level decomposes it.
  ir::Argument apply_again(const ir::Node* op, ir::Argument base);
  /// `link`'s view op applied to `base`.
  ir::Argument replay(const Link& link, ir::Argument base);
  /// replay() of an output of a multi-output view op.
  ir::Argument replay_output(const Link& link, ir::Argument base);
  /// `src`, the new value of `link`'s view, written back into `base_value`.
  ir::Argument scatter_into(const Link& link, ir::Argument base_value, ir::Argument src);
  /// `view` made again from its root's current value, with the view's own
  /// stack trace or (in_current_op) the node being lowered's.
  ir::Argument regenerate(const ir::Node* view, bool in_current_op = false);

  Rewriter& b_;
  std::unordered_map<const ir::Node*, Binding> env_;
  // The reverse of env_: the nodes (of the input program, or a rule's
  // intermediates) a node of the new graph stands for, in binding order.
  std::unordered_map<const ir::Node*, std::vector<const ir::Node*>> stands_for_;
  std::unordered_map<const ir::Node*, ViewOf> views_;
  std::unordered_map<const ir::Node*, int> versions_;  // per root
  std::vector<const ir::Node*> mutated_roots_;
  bool in_current_op_ = false;
};

}  // namespace exportlens::passes

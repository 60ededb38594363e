#pragma once
// Functionalization of a call to an op that writes its arguments and has no
// functional form of its own: a custom op (torch.library.custom_op with
// mutates_args), whose schema says `Tensor(a!)`. torch's FunctionalTensorMode
// rewrites such a call into the higher-order op auto_functionalized_v2
// (torch/_higher_order_ops/auto_functionalize.py, the generic mutable-op
// path): the op's arguments by name, each written argument replaced by the
// index of its base in `_all_bases`, and the call's value is the op's
// results followed by every base's new value, which later reads use.
#include "engine/ir/node.h"
#include "engine/ir/op_signature.h"
#include "engine/passes/functionalize.h"
#include "engine/passes/rewriter.h"

namespace exportlens::passes {

/// `n` (a call of the input program) lowered as torch lowers it:
///
///   auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(
///       torch.ops.mylib.scale_.default, factor = 0.5, _state_base_index = 0, _all_bases = [b_state])
///   getitem_1 = auto_functionalized_v2[1]        # state's new value
///
/// Arguments the call leaves out take their schema defaults. Throws
/// DecompositionError, naming the node, for what torch writes otherwise and
/// ExportLens does not yet: a written argument that is a view of another
/// tensor (torch passes the view's slice or strides), and ops tagged
/// inplace or out (torch's other two paths).
void lower_auto_functionalized(Rewriter& b, Functionalizer& f, const ir::Node* n, const ir::OpSignature& schema);

}  // namespace exportlens::passes

#pragma once
// Which values of a lowered graph require grad during torch's retrace, for
// the rules that branch on it (matmul's should_fold folds a batch into one mm
// when the matrix operand requires grad, whatever the batch's strides).
//
// torch's run_decompositions() retraces under torch.no_grad() (aot_export
// traces an inference graph), so, as in eager no-grad code:
//  * a placeholder requires grad as the program records it (parameters, an
//    example input made with requires_grad);
//  * a view of a value that requires grad requires grad too (views keep the
//    flag under no_grad: w.T, w[:4]); detach does not;
//  * anything else requires grad only where grad is enabled
//    (wrap_with_set_grad_enabled(True) bodies), an input requires grad and the
//    result is floating point;
//  * a rule torch runs below autograd (a Python decomposition, or a composite
//    the table decomposes: linear, matmul, ...) makes values that never
//    require grad (linear's weight.t() inside its rule); the composites torch
//    decomposes at every level (reshape, numpy_T, contiguous, ...: the
//    functionalization rules) run at the autograd level, their calls judged
//    one by one as above.
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/ir/graph.h"

namespace exportlens::passes {

class RequiresGrad {
 public:
  bool of(const ir::Node* n) const { return n && set_.count(n) > 0; }
  void set(const ir::Node* n, bool requires_grad);

  bool grad_enabled() const { return grad_enabled_; }
  /// The grad mode itself, for a region to set and restore (SaveAndRestore).
  bool& grad_mode() { return grad_enabled_; }
  /// Whether calls made now run through autograd (not inside a rule torch runs below it).
  bool at_autograd_level() const { return below_ == 0; }
  void enter_below() { ++below_; }
  void leave_below() { --below_; }

  /// A call of `op` at the autograd level returned `result` (a node, or the
  /// items of a multi-output op); `inputs` are its tensor arguments' nodes.
  void note_call(std::string_view op, const std::vector<const ir::Node*>& inputs, const ir::Argument& result);

 private:
  std::unordered_set<const ir::Node*> set_;
  bool grad_enabled_ = false;  // the retrace runs under torch.no_grad()
  int below_ = 0;
};

/// The tensor arguments' nodes of a call (lists included), in order.
std::vector<const ir::Node*> tensor_inputs(const std::vector<ir::Argument>& args,
                                           const std::vector<ir::NamedArgument>& kwargs);

}  // namespace exportlens::passes

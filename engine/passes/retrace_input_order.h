#pragma once
// The order of a lowered program's inputs. torch's run_decompositions()
// retraces ep.module(), whose parameters and buffers it lifts again in
// named_parameters() / named_buffers() order, and it registers the tensor
// constants as buffers of their submodules for the retrace (after each
// submodule's own buffers). So the lowered signature lists:
//   tokens; parameters; per module (preorder of the unlifted module's tree),
//   its buffers (persistent and not, as listed) then its tensor constants;
//   custom objects; user inputs
// where the unlifted module's tree has its submodules in the order their
// first state (parameter, buffer or constant, in signature order) names them:
// ep.module() creates the submodules as it copies the state in that order.
#include <cstddef>
#include <vector>

#include "engine/ir/graph_signature.h"

namespace exportlens::passes {

/// Indices into `signature.inputs`, in the order torch's retrace lists them.
std::vector<size_t> retrace_input_order(const ir::GraphSignature& signature);

}  // namespace exportlens::passes

#pragma once
// torch.cond and torch.map as higher-order ops: each branch / body is traced
// into its own graph (a submodule printed like torch's true_graph_0), called
// through a get_attr node, with torch's restrictions checked: branches take
// only their operands, return tensors of the same metadata, and do not
// mutate their inputs.
#include <ATen/core/ivalue.h>

#include "engine/trace/sdk/exportlens_sdk_hooks.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

sdk::Tensors trace_cond(Tracer& t, const c10::IValue& pred, const sdk::BranchFn& on_true,
                        const sdk::BranchFn& on_false, const sdk::Tensors& operands, const ir::SourceLocation& site);

sdk::Tensors trace_map(Tracer& t, const sdk::MapBodyFn& body, const sdk::Tensors& xs, const sdk::Tensors& args,
                       const ir::SourceLocation& site);

}  // namespace exportlens::trace

#pragma once
// What a traced program keeps of its inputs and outputs for writing it as a
// .pt2: the pytree shape of the outputs (ep.module() returns that shape) and
// the example inputs as torch.save bytes (ep.example_inputs in Python).
#include <ATen/core/ivalue.h>

#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/pytree_spec.h"

namespace exportlens::trace {

/// The pytree of a forward()'s result: tuples, lists and string-keyed dicts of leaves.
ir::PyTreeSpec pytree_of(const c10::IValue& value);

/// torch.save((tuple(inputs), {})), as torch.export.save stores example inputs.
std::shared_ptr<const std::vector<std::byte>> pickled_example_inputs(const std::vector<c10::IValue>& inputs);

}  // namespace exportlens::trace

#pragma once
// A traced program's state: parameters and buffers (the state dict) and
// lifted constants, as raw tensor payloads like the .pt2 reader's.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

struct StateTensor {
  std::string name;  // "lin.weight"
  at::Tensor tensor;
  bool is_parameter = false;
};

/// The tensor's elements, contiguous, little-endian, with its metadata.
ir::TensorPayload payload_of(const at::Tensor& t, bool is_parameter);

/// Fills ep.state_dict (in `state` order) and ep.constants.
void fill_state(ir::ExportedProgram& ep, const std::vector<StateTensor>& state,
                const std::vector<Tracer::LiftedConstant>& constants);

}  // namespace exportlens::trace

#pragma once
// The IR <-> LibTorch boundary for enums and tensor payloads. LibTorch
// headers: include only from engine/runtime sources and tests.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>

#include "engine/ir/exported_program.h"

namespace exportlens::runtime {

c10::ScalarType to_torch(ir::ScalarType t);
ir::ScalarType from_torch(c10::ScalarType t);
c10::Layout to_torch(ir::Layout l);
c10::MemoryFormat to_torch(ir::MemoryFormat m);
c10::Device to_torch(const ir::Device& d);

/// Materializes a stored weight/constant as a tensor on `device`.
at::Tensor payload_to_tensor(const ir::TensorPayload& p, const std::string& name, const c10::Device& device);

}  // namespace exportlens::runtime

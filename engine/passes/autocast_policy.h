#pragma once
// What torch.autocast does to an op inside an autocast region
// (wrap_with_autocast), as its dispatcher kernels (aten/src/ATen/autocast_mode.cpp)
// do when torch's retrace runs the region again: an op of the device's
// lower-precision list has its floating operands (not float64) cast to the
// region's dtype, one `_to_copy` each, before it runs. Ops of the fp32 and
// promote lists are not modelled (they run as written).
#include <optional>
#include <string>
#include <string_view>

#include "engine/ir/dtype.h"

namespace exportlens::passes {

struct AutocastRegion {
  std::string device;  // "cpu", "cuda"
  ir::ScalarType dtype;
};

/// The region a wrap_with_autocast(device_type, dtype, enabled, ...) call opens:
/// nullopt when it is disabled (its body runs as written).
std::optional<AutocastRegion> autocast_region(const std::string& device, std::optional<ir::ScalarType> dtype,
                                              bool enabled);

/// Whether `op_packet` ("aten.linear") runs in the region's lower precision on `device`.
bool casts_to_lower_precision(const std::string& device, std::string_view op_packet);

}  // namespace exportlens::passes

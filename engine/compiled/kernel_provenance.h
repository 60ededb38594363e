#pragma once
// Inductor's provenance for a compiled model (kernel_information.json, written
// when compiled with trace.provenance_tracking_level): for each kernel launch
// ("cpp_fused_add_relu_sin_1:3", its debug handle) the program's nodes it was
// made from (pre_grad_nodes), inductor's post-grad nodes and the user stacks.
// Read leniently: a member of another shape is left out with a note, the rest is kept.
#include <string>
#include <string_view>

#include "engine/compiled/compiled_model.h"
#include "engine/serde/read_limits.h"

namespace exportlens::compiled {

/// Merges the provenance `text` into `model`'s kernels (by debug handle; a
/// handle the wrapper does not launch is added after them), marking their
/// nodes mapped_by "provenance". Invalid JSON is a note, not an error.
void read_kernel_provenance(std::string_view text, const std::string& entry, const serde::ReadLimits& limits,
                            CompiledModel& model);

}  // namespace exportlens::compiled

#pragma once
// The built-in gallery through the facade's LibTorch-free types: what the CLI
// (`exportlens example`) and the GUI's Examples page list and trace.
#include <string>
#include <vector>

#include "engine/trace/trace_facade.h"

namespace exportlens::trace {

std::vector<ModelSummary> gallery_models();
/// Throws std::invalid_argument for an unknown name.
TraceOutcome trace_gallery_model(const std::string& name, const TraceRequest& request = {});

}  // namespace exportlens::trace

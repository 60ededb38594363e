#pragma once
// A model definition (the SDK's ModelDef) as the facade's plain types: what
// the model library loader and the built-in gallery share. LibTorch side.
#include "engine/trace/sdk/exportlens_sdk.h"
#include "engine/trace/trace_facade.h"

namespace exportlens::trace {

ModelSummary summary_of(const sdk::ModelDef& def);
/// Traces the model with the request's spec (or its own).
TraceOutcome trace_model(const sdk::ModelDef& def, const TraceRequest& request);

}  // namespace exportlens::trace

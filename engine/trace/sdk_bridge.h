#pragma once
// The tracer's side of the SDK: the TracerHooks table model code reaches
// through exportlens::sdk::tracer_hooks() (module scopes, check, cond, map).
#include "engine/trace/sdk/exportlens_sdk_hooks.h"

namespace exportlens::trace {

/// The hooks, installed in this binary's SDK copy on first use.
sdk::TracerHooks* tracer_hooks_table();

}  // namespace exportlens::trace

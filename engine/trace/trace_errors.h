#pragma once
// torch.export's errors, raised from inside model code with the model's call
// site: data-dependent guards (GuardOnDataDependentSymNode, or in strict mode
// Dynamo's "data-dependent branching"), failed checks, unsupported features.
// Each is also remembered by the tracer, so a model that catches it (try /
// catch (...)) still fails the trace.
#include <optional>
#include <string>

#include "engine/ir/node.h"
#include "engine/symbolic/shape_env.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

/// "\n\nThe following call raised this error:\n  File ..., line N, in fn\n    code" (empty without a site).
std::string call_site_text(const std::optional<ir::SourceLocation>& site);

[[noreturn]] void raise_data_dependent(Tracer& t, const symbolic::DataDependentError& e,
                                       const std::optional<ir::SourceLocation>& site, bool from_tensor_value);
[[noreturn]] void raise_check_failed(Tracer& t, const symbolic::CheckFailedError& e,
                                     const std::optional<ir::SourceLocation>& site);
/// Raises `error` after remembering it.
[[noreturn]] void raise(Tracer& t, const TraceError& error);

}  // namespace exportlens::trace

#pragma once
// What a run reports about each input and output value: kind, dtype, shape
// and, for a tensor, its minimum, maximum and mean in float64. LibTorch
// headers: include only from engine/runtime sources and tests.
#include <ATen/core/ivalue.h>

#include "engine/runtime/run_report.h"

namespace exportlens::runtime {

/// The value's summary. A tensor's statistics are computed a chunk of
/// elements at a time over a flat view: converting a 2 GB float tensor to
/// float64 at once would hold 4 GB more, and LibTorch's reductions sort a
/// tensor's dimensions (quadratic in its rank).
ValueSummary summarize(const c10::IValue& v);

}  // namespace exportlens::runtime

#pragma once
// How far a run's values are from a reference's: element-wise max absolute
// and relative error and an allclose verdict with torch.testing's
// dtype-aware tolerances. LibTorch headers: runtime sources and tests only.
#include <ATen/core/ivalue.h>

#include <string>

#include "engine/runtime/run_report.h"

namespace exportlens::runtime {

/// torch.testing.assert_close's default rtol / atol for a dtype (float16
/// 1e-3 / 1e-5, bfloat16 1.6e-2 / 1e-5, float32 1.3e-6 / 1e-5, float64
/// 1e-7 / 1e-7; exact for integers and bools).
Tolerance default_tolerance(c10::ScalarType dtype);

/// `run` against `reference` (any device, any precision: compared in
/// float64 on the CPU). The tolerance is the run's dtype's, or the looser of
/// the two dtypes' when they differ (a bf16 run against an fp32 reference).
/// Tensors, lists / tuples of them (element-wise, the worst element counts)
/// and Python scalars (exactly, floats within the tolerance).
ValueComparison compare_values(const std::string& name, const c10::IValue& run, const c10::IValue& reference);

}  // namespace exportlens::runtime

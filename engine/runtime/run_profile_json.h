#pragma once
// A run's report as files for tools: the profile (`run --profile OUT.json`:
// a `nodes` list, one object per node with name, op, ms, kernels and
// memory, plus the run's totals, the CUDA-graph figures and the comparison)
// and a Chrome trace-event file (`run --trace OUT.json`, what Perfetto,
// chrome://tracing and torch.profiler's export_chrome_trace use). No LibTorch.
#include <string>

#include "engine/runtime/run_report.h"

namespace exportlens::runtime {

std::string profile_json(const RunReport& report, const std::string& program);

/// Nodes as complete ("X") events on one track of the timed run, their
/// kernels on a second process (the profiled run, whose clock is CUPTI's),
/// device memory as a counter track.
std::string chrome_trace_json(const RunReport& report, const std::string& program);

}  // namespace exportlens::runtime

#pragma once
// How far a GPU output is from its CPU reference. The runtime's report
// summarizes each output (shape, dtype, min, max, mean) without its
// elements, so the element-wise max |a - b| is bounded from below by the
// largest difference of those statistics (each moves by at most max |a - b|).
#include <QString>

#include "engine/runtime/program_runner.h"

namespace exportlens::ui {

struct OutputComparison {
  QString mismatch;       // "shape [6, 3] vs [6, 4]": not comparable at all
  double lowerBound = 0;  // max |a - b| >= this
  bool exact = false;     // lowerBound is the max |a - b| itself (non-tensor values)
};

OutputComparison compare_outputs(const runtime::ValueSummary& run, const runtime::ValueSummary& reference);
/// "≥ 1.2e-07", "0", "shape [6, 3] vs [6, 4]".
QString comparison_text(const OutputComparison& comparison);

}  // namespace exportlens::ui

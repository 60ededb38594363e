#include "ui/run/output_comparison.h"

#include <QObject>
#include "ui/core/shape_text.h"

#include <algorithm>
#include <cmath>

namespace exportlens::ui {

OutputComparison compare_outputs(const runtime::ValueSummary& run, const runtime::ValueSummary& reference) {
  OutputComparison c;
  if (run.kind != reference.kind) {
    c.mismatch = QObject::tr("%1 vs %2").arg(QString::fromStdString(run.kind), QString::fromStdString(reference.kind));
  } else if (run.kind != "tensor") {
    c.exact = true;
    c.mismatch = run.text == reference.text ? QString()
                                            : QObject::tr("%1 vs %2").arg(QString::fromStdString(run.text),
                                                                          QString::fromStdString(reference.text));
  } else if (run.shape != reference.shape) {
    c.mismatch = QObject::tr("shape %1 vs %2").arg(shape_text(run.shape), shape_text(reference.shape));
  } else if (run.dtype != reference.dtype) {
    c.mismatch = QObject::tr("dtype %1 vs %2").arg(QString::fromStdString(run.dtype), QString::fromStdString(reference.dtype));
  } else {
    c.lowerBound = std::max({std::abs(run.min - reference.min), std::abs(run.max - reference.max),
                             std::abs(run.mean - reference.mean)});
  }
  return c;
}

QString comparison_text(const OutputComparison& c) {
  if (!c.mismatch.isEmpty()) return c.mismatch;
  if (c.exact) return QObject::tr("equal");
  if (c.lowerBound == 0) return QObject::tr("≈ 0 (statistics equal)");
  return QObject::tr("≥ %1").arg(c.lowerBound, 0, 'g', 3);
}

}  // namespace exportlens::ui

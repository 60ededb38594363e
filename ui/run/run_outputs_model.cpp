#include "ui/run/run_outputs_model.h"

#include "ui/core/shape_text.h"
#include "ui/run/output_comparison.h"

namespace exportlens::ui {
namespace {

bool has_statistics(const runtime::ValueSummary& v) {
  if (v.kind != "tensor") return false;
  int64_t n = 1;
  for (int64_t s : v.shape) n *= s;
  return n > 0 && v.dtype != "torch.bool" && v.dtype.find("complex") == std::string::npos;
}

QString number(double v) { return QString::number(v, 'g', 6); }

}  // namespace

RunOutputsModel::RunOutputsModel(QObject* parent)
    : NodeTableModel({{tr("Output"), false, true},
                      {tr("dtype")},
                      {tr("Shape"), false, true},
                      {tr("Min"), true, true},
                      {tr("Max"), true, true},
                      {tr("Mean"), true, true},
                      {tr("max |Δ| vs CPU"), false, true}},
                     parent) {}

void RunOutputsModel::setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome) {
  resetRows([&] {
    rows_.clear();
    if (!outcome.report || !program) return;
    const auto names = program->program->signature.user_outputs();
    const auto& outputs = outcome.report->outputs;
    for (size_t i = 0; i < outputs.size(); ++i) {
      Row row{i < names.size() ? QString::fromStdString(names[i]->arg.name) : tr("output %1").arg(i), outputs[i], {}, {}};
      if (outcome.reference && i < outcome.reference->outputs.size()) {
        const OutputComparison c = compare_outputs(outputs[i], outcome.reference->outputs[i]);
        row.vsCpu = comparison_text(c);
        row.vsCpuTip = tr("CPU reference: %1\nThe runtime reports min/max/mean, not elements: max |GPU − CPU| is at "
                          "least the largest difference of those.")
                           .arg(QString::fromStdString(outcome.reference->outputs[i].text));
      } else if (!outcome.referenceError.isEmpty()) {
        row.vsCpu = tr("CPU reference failed");
        row.vsCpuTip = outcome.referenceError;
      }
      rows_.append(row);
    }
  });
}

QVariant RunOutputsModel::text(int row, int column) const {
  const Row& r = rows_[row];
  const runtime::ValueSummary& v = r.value;
  const bool stats = has_statistics(v);
  switch (column) {
    case Output: return r.name;
    case DType: return v.kind == "tensor" ? QString::fromStdString(v.dtype) : QString::fromStdString(v.kind);
    case Shape: return v.kind == "tensor" ? shape_text(v.shape) : QString::fromStdString(v.text);
    case Min: return stats ? number(v.min) : QString();
    case Max: return stats ? number(v.max) : QString();
    case Mean: return stats ? number(v.mean) : QString();
    case VsCpu: return r.vsCpu;
  }
  return {};
}

QVariant RunOutputsModel::toolTip(int row, int column) const {
  const Row& r = rows_[row];
  return column == VsCpu && !r.vsCpuTip.isEmpty() ? r.vsCpuTip : QString::fromStdString(r.value.text);
}

}  // namespace exportlens::ui

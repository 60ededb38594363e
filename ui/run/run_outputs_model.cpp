#include "ui/run/run_outputs_model.h"

#include <QColor>

#include "ui/core/shape_text.h"

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
                      {tr("max |Δ| vs CPU"), true, true},
                      {tr("max rel"), true, true},
                      {tr("allclose")}},
                     parent) {}

void RunOutputsModel::setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome) {
  resetRows([&] {
    rows_.clear();
    if (!outcome.report || !program) return;
    const auto names = program->program->signature.user_outputs();
    const auto& outputs = outcome.report->outputs;
    const auto* cmp = outcome.report->comparison ? &*outcome.report->comparison : nullptr;
    for (size_t i = 0; i < outputs.size(); ++i) {
      Row row{i < names.size() ? QString::fromStdString(names[i]->arg.name) : tr("output %1").arg(i), outputs[i], {}};
      if (cmp && i < cmp->outputs.size()) row.vsCpu = cmp->outputs[i];
      rows_.append(row);
    }
  });
}

QVariant RunOutputsModel::text(int row, int column) const {
  const Row& r = rows_[row];
  const runtime::ValueSummary& v = r.value;
  const bool stats = has_statistics(v);
  const auto& c = r.vsCpu;
  switch (column) {
    case Output: return r.name;
    case DType: return v.kind == "tensor" ? QString::fromStdString(v.dtype) : QString::fromStdString(v.kind);
    case Shape: return v.kind == "tensor" ? shape_text(v.shape) : QString::fromStdString(v.text);
    case Min: return stats ? number(v.min) : QString();
    case Max: return stats ? number(v.max) : QString();
    case Mean: return stats ? number(v.mean) : QString();
    case VsCpu: return !c ? QString() : c->mismatch.empty() ? number(c->max_abs) : QString::fromStdString(c->mismatch);
    case MaxRel: return c && c->mismatch.empty() ? number(c->max_rel) : QString();
    case Close:
      if (!c) return QString();
      if (c->close) return tr("✓ close");
      if (!c->mismatch.empty()) return tr("✗ not comparable");
      return tr("✗ %1 of %2").arg(c->mismatched).arg(c->elements);
  }
  return {};
}

QVariant RunOutputsModel::toolTip(int row, int column) const {
  const Row& r = rows_[row];
  if (column < VsCpu || !r.vsCpu) return QString::fromStdString(r.value.text);
  const auto& c = *r.vsCpu;
  return tr("Against the CPU run as exported, same inputs: element-wise max |run − CPU| %1, max relative %2;\n"
            "allclose with torch.testing's tolerances for %3: rtol %4, atol %5 (%6 of %7 elements beyond)")
      .arg(number(c.max_abs), number(c.max_rel), QString::fromStdString(c.dtype))
      .arg(c.tolerance.rtol)
      .arg(c.tolerance.atol)
      .arg(c.mismatched)
      .arg(c.elements);
}

QVariant RunOutputsModel::otherRole(int row, int column, int role) const {
  const auto& c = rows_[row].vsCpu;
  if (role == Qt::ForegroundRole && column == Close && c) return c->close ? QColor(40, 150, 70) : QColor(208, 69, 58);
  return {};
}

}  // namespace exportlens::ui

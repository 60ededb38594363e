#include "ui/run/run_outputs_model.h"

#include <QColor>
#include <QFontDatabase>

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

RunOutputsModel::RunOutputsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunOutputsModel::setOutcome(const LoadedProgramPtr& program, const RunOutcome& outcome) {
  beginResetModel();
  rows_.clear();
  if (outcome.report && program) {
    const auto names = program->program->signature.user_outputs();
    const auto& outputs = outcome.report->outputs;
    const auto* cmp = outcome.report->comparison ? &*outcome.report->comparison : nullptr;
    for (size_t i = 0; i < outputs.size(); ++i) {
      Row row{i < names.size() ? QString::fromStdString(names[i]->arg.name) : tr("output %1").arg(i), outputs[i], {}};
      if (cmp && i < cmp->outputs.size()) row.vsCpu = cmp->outputs[i];
      rows_.append(row);
    }
  }
  endResetModel();
}

int RunOutputsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunOutputsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunOutputsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const Row& row = rows_[index.row()];
  const runtime::ValueSummary& v = row.value;
  const bool stats = has_statistics(v);
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Output: return row.name;
      case DType: return v.kind == "tensor" ? QString::fromStdString(v.dtype) : QString::fromStdString(v.kind);
      case Shape: return v.kind == "tensor" ? shape_text(v.shape) : QString::fromStdString(v.text);
      case Min: return stats ? number(v.min) : QString();
      case Max: return stats ? number(v.max) : QString();
      case Mean: return stats ? number(v.mean) : QString();
      case VsCpu: return !row.vsCpu ? QString() : row.vsCpu->mismatch.empty() ? number(row.vsCpu->max_abs)
                                                                                 : QString::fromStdString(row.vsCpu->mismatch);
      case MaxRel: return row.vsCpu && row.vsCpu->mismatch.empty() ? number(row.vsCpu->max_rel) : QString();
      case Close:
        if (!row.vsCpu) return QString();
        if (row.vsCpu->close) return tr("✓ close");
        if (!row.vsCpu->mismatch.empty()) return tr("✗ not comparable");
        return tr("✗ %1 of %2").arg(row.vsCpu->mismatched).arg(row.vsCpu->elements);
    }
  } else if (role == Qt::ToolTipRole) {
    if (index.column() >= VsCpu && row.vsCpu)
      return tr("Against the CPU run as exported, same inputs: element-wise max |run − CPU| %1, max relative %2;\n"
                "allclose with torch.testing's tolerances for %3: rtol %4, atol %5 (%6 of %7 elements beyond)")
          .arg(number(row.vsCpu->max_abs), number(row.vsCpu->max_rel), QString::fromStdString(row.vsCpu->dtype))
          .arg(row.vsCpu->tolerance.rtol)
          .arg(row.vsCpu->tolerance.atol)
          .arg(row.vsCpu->mismatched)
          .arg(row.vsCpu->elements);
    return QString::fromStdString(v.text);
  } else if (role == Qt::ForegroundRole && index.column() == Close && row.vsCpu) {
    return row.vsCpu->close ? QColor(40, 150, 70) : QColor(208, 69, 58);
  } else if (role == Qt::TextAlignmentRole && ((index.column() >= Min && index.column() <= Mean) ||
                                               index.column() == VsCpu || index.column() == MaxRel)) {
    return int(Qt::AlignRight | Qt::AlignVCenter);
  } else if (role == Qt::FontRole && index.column() != DType) {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  }
  return {};
}

QVariant RunOutputsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  switch (section) {
    case Output: return tr("Output");
    case DType: return tr("dtype");
    case Shape: return tr("Shape");
    case Min: return tr("Min");
    case Max: return tr("Max");
    case Mean: return tr("Mean");
    case VsCpu: return tr("max |Δ| vs CPU");
    case MaxRel: return tr("max rel");
    case Close: return tr("allclose");
  }
  return {};
}

QString RunOutputsModel::nodeAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].name : QString(); }

}  // namespace exportlens::ui

#include "ui/shapes/violations_model.h"

#include <QFontDatabase>

#include "ui/shapes/guards_model.h"

namespace exportlens::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString kind_label(const std::string& kind) {
  if (kind == "specialization") return QObject::tr("specialization");
  if (kind == "data_dependent_guard") return QObject::tr("data-dependent guard");
  if (kind == "no_shape_rule") return QObject::tr("no shape rule");
  if (kind == "recorded_guard_false") return QObject::tr("recorded guard false");
  return QObject::tr("violation");
}

}  // namespace

ViolationsModel::ViolationsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ViolationsModel::setResult(const SolveResultPtr& result) {
  beginResetModel();
  result_ = result;
  rows_.clear();
  if (result) {
    if (!result->problems.empty()) {
      rows_ = result->problems;
    } else {
      for (const auto& v : result->violations)
        rows_.push_back({v.kind == "specialized" ? "specialization" : "constraint_violation",
                         v.debug_name + (v.source.empty() ? "" : (v.debug_name.empty() ? "" : " = ") + v.source),
                         v.message, v.origin, v.guard});
    }
  }
  endResetModel();
}

int ViolationsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ViolationsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ViolationsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const ops::ProblemInfo& v = rows_[size_t(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Kind: return kind_label(v.kind);
      case SpecItem: return qs(v.subject);
      case Problem: return qs(v.message);
      case Guard: return qs(v.guard);
      case Node: return v.origin ? qs(v.origin->node) : QString();
      case Source: return v.origin ? provenance_source(*v.origin) : QString();
    }
  } else if (role == Qt::ToolTipRole) {
    QString tip = qs(v.message);
    if (v.origin) tip += QStringLiteral("\n\n") + qs(v.origin->describe());
    return tip;
  } else if (role == Qt::FontRole && (index.column() == SpecItem || index.column() == Guard)) {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  }
  return {};
}

QVariant ViolationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section + 1;
  switch (section) {
    case Kind: return tr("Kind");
    case SpecItem: return tr("Spec item");
    case Problem: return tr("Problem");
    case Guard: return tr("Guard");
    case Node: return tr("Node");
    case Source: return tr("Source");
  }
  return {};
}

QString ViolationsModel::nodeAt(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  const auto& origin = rows_[size_t(row)].origin;
  return origin ? qs(origin->node) : QString();
}

}  // namespace exportlens::ui

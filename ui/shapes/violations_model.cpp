#include "ui/shapes/violations_model.h"

#include <QFontDatabase>

#include "ui/shapes/guards_model.h"

namespace exportlens::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ViolationsModel::ViolationsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ViolationsModel::setResult(const SolveResultPtr& result) {
  beginResetModel();
  result_ = result;
  endResetModel();
}

int ViolationsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->violations.size());
}

int ViolationsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ViolationsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const ops::ViolationInfo& v = result_->violations[index.row()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case SpecItem: {
        QString item = qs(v.debug_name);
        if (!v.source.empty()) item += (item.isEmpty() ? QString() : QStringLiteral(" = ")) + qs(v.source);
        return item;
      }
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
  const auto& origin = result_->violations[row].origin;
  return origin ? qs(origin->node) : QString();
}

}  // namespace exportlens::ui

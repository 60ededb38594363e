#include "ui/shapes/violations_model.h"

#include "ui/shapes/guards_model.h"

namespace exportlens::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ViolationsModel::ViolationsModel(QObject* parent)
    : SolveTableModel({{tr("Spec item"), false, true},
                      {tr("Guard"), false, true},
                      {tr("Node")},
                      {tr("Source")},
                      {tr("Problem")}},
                     parent, RowHeader::Numbers) {}

int ViolationsModel::rows() const { return result_ ? static_cast<int>(result_->violations.size()) : 0; }

QVariant ViolationsModel::text(int row, int column) const {
  const ops::ViolationInfo& v = result_->violations[row];
  switch (column) {
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
  return {};
}

QString ViolationsModel::rowNode(int row) const {
  const auto& origin = result_->violations[row].origin;
  return origin ? qs(origin->node) : QString();
}

QVariant ViolationsModel::toolTip(int row, int) const {
  const ops::ViolationInfo& v = result_->violations[row];
  QString tip = qs(v.message);
  if (v.origin) tip += QStringLiteral("\n\n") + qs(v.origin->describe());
  return tip;
}

}  // namespace exportlens::ui

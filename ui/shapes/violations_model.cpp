#include "ui/shapes/violations_model.h"

#include "ui/core/qstring_from.h"
#include "ui/shapes/guards_model.h"

namespace exportlens::ui {
namespace {

QString kind_label(const std::string& kind) {
  if (kind == "specialization") return QObject::tr("specialization");
  if (kind == "data_dependent_guard") return QObject::tr("data-dependent guard");
  if (kind == "no_shape_rule") return QObject::tr("no shape rule");
  if (kind == "recorded_guard_false") return QObject::tr("recorded guard false");
  return QObject::tr("violation");
}

}  // namespace

ViolationsModel::ViolationsModel(QObject* parent)
    : SolveTableModel({{tr("Kind")},
                       {tr("Spec item"), false, true},
                       {tr("Guard"), false, true},
                       {tr("Node")},
                       {tr("Source")},
                       {tr("Problem")}},
                      parent, RowHeader::Numbers) {}

const std::vector<ops::ProblemInfo>& ViolationsModel::problems() const {
  if (result_ && !result_->problems.empty()) return result_->problems;
  if (rows_of_ == result_.get()) return rows_;
  rows_of_ = result_.get();
  rows_.clear();
  if (result_) {
    for (const auto& v : result_->violations)
      rows_.push_back({v.kind == "specialized" ? "specialization" : "constraint_violation",
                       v.debug_name + (v.source.empty() ? "" : (v.debug_name.empty() ? "" : " = ") + v.source),
                       v.message, v.origin, v.guard});
  }
  return rows_;
}

int ViolationsModel::rows() const { return static_cast<int>(problems().size()); }

QVariant ViolationsModel::text(int row, int column) const {
  const ops::ProblemInfo& v = problems()[size_t(row)];
  switch (column) {
    case Kind: return kind_label(v.kind);
    case SpecItem: return qs(v.subject);
    case Problem: return qs(v.message);
    case Guard: return qs(v.guard);
    case Node: return v.origin ? qs(v.origin->node) : QString();
    case Source: return v.origin ? provenance_source(*v.origin) : QString();
  }
  return {};
}

QString ViolationsModel::rowNode(int row) const {
  const auto& origin = problems()[size_t(row)].origin;
  return origin ? qs(origin->node) : QString();
}

QVariant ViolationsModel::toolTip(int row, int) const {
  const ops::ProblemInfo& v = problems()[size_t(row)];
  QString tip = qs(v.message);
  if (v.origin) tip += QStringLiteral("\n\n") + qs(v.origin->describe());
  return tip;
}

}  // namespace exportlens::ui

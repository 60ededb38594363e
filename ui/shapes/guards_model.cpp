#include "ui/shapes/guards_model.h"

#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
QString provenance_kind_name(symbolic::Provenance::Kind kind) {
  using Kind = symbolic::Provenance::Kind;
  switch (kind) {
    case Kind::ShapeRule: return QObject::tr("shape rule");
    case Kind::RecordedGuard: return QObject::tr("recorded guard");
    case Kind::SpecRelation: return QObject::tr("spec");
    case Kind::RuntimeAssert: return QObject::tr("runtime assert");
    case Kind::Input: return QObject::tr("input");
  }
  return {};
}

QString provenance_source(const symbolic::Provenance& origin) {
  QString text = qs(origin.location);
  if (!origin.code.empty()) text += (text.isEmpty() ? QString() : QStringLiteral(": ")) + qs(origin.code);
  return text;
}

GuardsModel::GuardsModel(QObject* parent)
    : SolveTableModel({{tr("Guard"), false, true},
                      {tr("From")},
                      {tr("Node")},
                      {tr("Op"), false, true},
                      {tr("Rule")},
                      {tr("Source")}},
                     parent, RowHeader::Numbers) {}

void GuardsModel::follow(ProgramModel* model) {
  connect(model, &ProgramModel::solveChanged, this, [this, model] { setResult(model->solve()); });
}

int GuardsModel::rows() const { return result_ ? static_cast<int>(result_->guards.size()) : 0; }

QVariant GuardsModel::text(int row, int column) const {
  const ops::GuardInfo& guard = result_->guards[row];
  const symbolic::Provenance& origin = guard.origin;
  switch (column) {
    case Guard: return qs(guard.python.empty() ? guard.expr : guard.python);
    case Origin:
      return guard.runtime_assert ? tr("%1 (run time)").arg(provenance_kind_name(origin.kind))
                                  : provenance_kind_name(origin.kind);
    case Node: return qs(origin.node);
    case Op: return qs(origin.op);
    case Rule: return qs(origin.kind == symbolic::Provenance::Kind::RecordedGuard ? origin.detail : origin.rule);
    case Source: return provenance_source(origin);
  }
  return {};
}

QString GuardsModel::rowNode(int row) const { return qs(result_->guards[row].origin.node); }

QVariant GuardsModel::toolTip(int row, int) const {
  const ops::GuardInfo& guard = result_->guards[row];
  return QStringLiteral("%1\n%2\n%3").arg(qs(guard.expr), qs(guard.python), qs(guard.origin.describe()));
}

}  // namespace exportlens::ui

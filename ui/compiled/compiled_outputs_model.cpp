#include "ui/compiled/compiled_outputs_model.h"

#include <QColor>

#include <algorithm>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

CompiledOutputsModel::CompiledOutputsModel(CompiledSession* session, QObject* parent)
    : NodeTableModel({{tr("Output"), false, true},
                      {tr("Compiled model's value"), false, true},
                      {tr("max |Δ|"), true},
                      {tr("max rel"), true},
                      {tr("Against the program")}},
                     parent),
      session_(session) {
  connect(session_, &CompiledSession::runChanged, this, [this] { resetRows([] {}); });
}

int CompiledOutputsModel::rows() const {
  const CompiledComparisonPtr& run = session_->run();
  if (!run) return 0;
  return int(std::max(run->outputs.size(), run->compiled.outputs.size()));
}

QVariant CompiledOutputsModel::text(int row, int column) const {
  const numerics::CompiledComparison& run = *session_->run();
  const numerics::OutputComparison* cmp = row < int(run.outputs.size()) ? &run.outputs[row] : nullptr;
  const runtime::ValueSummary* value = row < int(run.compiled.outputs.size()) ? &run.compiled.outputs[row] : nullptr;
  switch (column) {
    case Output: return cmp ? qs(cmp->name) : tr("output %1").arg(row);
    case Value: return value ? qs(value->text) : QString();
    case MaxAbs: return cmp && cmp->stats ? QString::number(cmp->stats->max_abs, 'g', 3) : QString();
    case MaxRel: return cmp && cmp->stats ? QString::number(cmp->stats->max_rel, 'g', 3) : QString();
    case Verdict:
      if (!run.compared) return tr("not compared: %1").arg(qs(run.not_compared));
      if (!cmp) return tr("no such output in the program");
      if (!cmp->stats) return tr("not comparable: %1").arg(qs(cmp->mismatch));
      return cmp->close() ? tr("close (rtol %1, atol %2)").arg(cmp->stats->rtol).arg(cmp->stats->atol)
                          : tr("differs beyond rtol %1, atol %2").arg(cmp->stats->rtol).arg(cmp->stats->atol);
  }
  return {};
}

QVariant CompiledOutputsModel::otherRole(int row, int column, int role) const {
  if (role != Qt::ForegroundRole || column != Verdict) return {};
  const numerics::CompiledComparison& run = *session_->run();
  if (row >= int(run.outputs.size()) || !run.compared) return {};
  return run.outputs[row].close() ? QColor(30, 130, 60) : QColor(190, 40, 40);
}

}  // namespace exportlens::ui

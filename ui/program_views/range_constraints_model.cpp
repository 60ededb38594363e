#include "ui/program_views/range_constraints_model.h"

#include "ui/core/program_model.h"

namespace exportlens::ui {

RangeConstraintsModel::RangeConstraintsModel(QObject* parent)
    : NodeTableModel({{tr("Symbol"), false, true}, {tr("Min"), true, true}, {tr("Max"), true, true}}, parent) {}

void RangeConstraintsModel::show(QVector<Row> rows, bool solved) {
  const bool retitled = solved != solved_;
  resetRows([&] {
    rows_ = std::move(rows);
    solved_ = solved;
  });
  if (retitled) emit titleChanged(title());
}

void RangeConstraintsModel::setProgram(const LoadedProgramPtr& program) {
  QVector<Row> rows;
  if (program) {
    for (const auto& [key, range] : program->program->range_constraints.entries)
      rows.append({QString::fromStdString(key.str()), QString::fromStdString(range.lower.str()),
                   QString::fromStdString(range.upper.str())});
  }
  show(std::move(rows), false);
}

void RangeConstraintsModel::setSolved(const std::vector<ops::RangeInfo>& ranges) {
  QVector<Row> rows;
  for (const auto& range : ranges)
    rows.append({QString::fromStdString(range.expr), QString::fromStdString(range.lower),
                 QString::fromStdString(range.upper)});
  show(std::move(rows), true);
}

QString RangeConstraintsModel::title() const {
  return solved_ ? tr("Range constraints (solved)") : tr("Range constraints");
}

QVariant RangeConstraintsModel::text(int row, int column) const {
  const Row& r = rows_[row];
  switch (column) {
    case Symbol: return r.symbol;
    case Min: return r.min;
    case Max: return r.max;
  }
  return {};
}

void RangeConstraintsModel::follow(ProgramModel* model) {
  auto refresh = [this, model] {
    const SolveResultPtr& solve = model->solve();
    if (model->specEdited() && solve && solve->status != ops::SolveStatus::Error)
      setSolved(solve->range_constraints);
    else
      setProgram(model->loaded());
  };
  connect(model, &ProgramModel::programChanged, this, refresh);
  connect(model, &ProgramModel::solveChanged, this, refresh);
}

}  // namespace exportlens::ui

#include "ui/core/program_model.h"

namespace exportlens::ui {

ProgramModel::ProgramModel(QObject* parent) : QObject(parent) {}

const ir::ExportedProgram* ProgramModel::program() const {
  return shown_ ? shown_->program.get() : nullptr;
}

void ProgramModel::setOpened(LoadedProgramPtr opened) {
  opened_ = std::move(opened);
  solve_.reset();
  solve_facts_.clear();
  spec_edited_ = false;
  run_times_.clear();
  show(opened_ ? LevelChoice::opened(*opened_->program) : LevelChoice::training(), opened_, false, {});
  emit solveChanged();
  emit runFinished();
  emit programOpened();
}

void ProgramModel::setShown(const LevelChoice& level, LoadedProgramPtr program, const QString& selected) {
  show(level, std::move(program), true, selected);
}

void ProgramModel::show(const LevelChoice& level, LoadedProgramPtr program, bool keep_place, const QString& selected) {
  const bool other_level = !(level == level_);
  place_kept_ = keep_place && shown_ && program;
  shown_ = std::move(program);
  level_ = level;
  selected_ = node(selected);
  if (other_level) emit levelChanged(level_);
  emit programChanged();
  emit selectionChanged(selectedName());
}

const ir::Node* ProgramModel::node(const QString& name) const {
  if (!shown_ || name.isEmpty()) return nullptr;
  return shown_->graph().find(name.toStdString());
}

QString ProgramModel::selectedName() const {
  return selected_ ? QString::fromStdString(selected_->name) : QString();
}

void ProgramModel::selectNode(const QString& name) {
  const ir::Node* next = node(name);
  if (next == selected_) return;
  selected_ = next;
  emit selectionChanged(selectedName());
}

void ProgramModel::setSolve(SolveResultPtr result, bool specEdited) {
  solve_ = std::move(result);
  spec_edited_ = specEdited;
  solve_facts_ = solve_ ? node_solve_facts(*solve_) : NodeSolveFactsMap();
  emit solveChanged();
}

void ProgramModel::setRunTimes(NodeRunTimes times) {
  run_times_ = std::move(times);
  emit runFinished();
}

}  // namespace exportlens::ui

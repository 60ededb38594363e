#include "ui/core/program_model.h"

namespace exportlens::ui {

ProgramModel::ProgramModel(QObject* parent) : QObject(parent) {}

const ir::ExportedProgram* ProgramModel::program() const {
  return loaded_ ? loaded_->program.get() : nullptr;
}

void ProgramModel::setLoaded(LoadedProgramPtr loaded) {
  loaded_ = std::move(loaded);
  selected_ = nullptr;
  emit programChanged();
  emit selectionChanged(QString());
}

const ir::Node* ProgramModel::node(const QString& name) const {
  if (!loaded_ || name.isEmpty()) return nullptr;
  return loaded_->graph().find(name.toStdString());
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

}  // namespace exportlens::ui

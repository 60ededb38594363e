#pragma once
// The opened program and the one node selection every view shares: views
// call selectNode() and follow selectionChanged(), so a node picked on the
// canvas, in the code or in a table is picked everywhere.
#include <QObject>
#include <QString>

#include "ui/core/loaded_program.h"

namespace exportlens::ui {

class ProgramModel : public QObject {
  Q_OBJECT
 public:
  explicit ProgramModel(QObject* parent = nullptr);

  const LoadedProgramPtr& loaded() const { return loaded_; }
  /// nullptr until a program is loaded.
  const ir::ExportedProgram* program() const;
  void setLoaded(LoadedProgramPtr loaded);

  /// The node of the main graph with this name, or nullptr.
  const ir::Node* node(const QString& name) const;
  const ir::Node* selectedNode() const { return selected_; }
  QString selectedName() const;

 public slots:
  /// Selects a node by name; an empty or unknown name clears the selection.
  void selectNode(const QString& name);

 signals:
  void programChanged();
  void selectionChanged(const QString& name);

 private:
  LoadedProgramPtr loaded_;
  const ir::Node* selected_ = nullptr;
};

}  // namespace exportlens::ui

#pragma once
// Everything known about the selected node: op, target, schema, arguments
// (referenced nodes are links), output dtype / symbolic shape / strides /
// device, users, source line, module stack, source_fn and stack trace.
#include <QWidget>

#include "ui/core/loaded_program.h"
#include "ui/core/node_solve_facts.h"

class QTextBrowser;

namespace exportlens::ui {

class ProgramModel;

class InspectorWidget : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorWidget(QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's selected node with what its latest solve says; a link selects there.
  void follow(ProgramModel* model);
  /// What the latest dynamic-shapes solve says per node (solved shape, guards).
  void setSolveFacts(const NodeSolveFactsMap& facts);
  /// What the inspector shows, as plain text (for tests and copying).
  QString plainText() const;

 public slots:
  void showNode(const QString& name);

 signals:
  /// A link to another node was clicked.
  void nodeActivated(const QString& name);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void render();

  QTextBrowser* browser_;
  LoadedProgramPtr program_;
  NodeSolveFactsMap facts_;
  QString node_;
};

}  // namespace exportlens::ui

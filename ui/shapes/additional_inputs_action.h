#pragma once
// The Dynamic shapes dock's "From Example Inputs…": torch.export's
// AdditionalInputs in the spec editor. The user picks torch.save'd input
// sets; the dims whose sizes differ from the program's example become
// Dim.DYNAMIC in the spec (one undoable edit, re-solved like any other), and
// once solved, each set is checked against the solved program: status() says
// whether every set fits, or which does not and why.
#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

#include "engine/runtime/additional_inputs.h"

class QAction;
class QWidget;

namespace exportlens::ui {

class SpecSession;

class AdditionalInputsAction : public QObject {
  Q_OBJECT
 public:
  AdditionalInputsAction(SpecSession* session, QWidget* dialog_parent);

  QAction* action() const { return action_; }
  /// The last verdict ("3 example input sets fit the solved program", a
  /// refusal, or why no spec could be made); empty before any use.
  const QString& status() const { return status_; }

 public slots:
  /// What the action does after its file dialog (tests call it directly).
  void useInputFiles(const QStringList& paths);

 signals:
  void statusChanged(const QString& status);

 private:
  void setStatus(const QString& status);
  void verify();

  SpecSession* session_;
  QWidget* parent_;
  QAction* action_;
  std::vector<runtime::InputsFile> files_;
  bool awaiting_solve_ = false;
  const void* program_ = nullptr;  // the program the sets and the status are about
  QString status_;
};

}  // namespace exportlens::ui

#include "ui/shapes/additional_inputs_action.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>

#include "engine/ops/program_solver.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"

namespace exportlens::ui {

AdditionalInputsAction::AdditionalInputsAction(SpecSession* session, QWidget* dialog_parent)
    : QObject(dialog_parent), session_(session), parent_(dialog_parent) {
  action_ = new QAction(tr("From Example Inputs…"), this);
  action_->setObjectName("additionalInputsAction");
  action_->setToolTip(tr("Infer the spec from more example inputs (torch.export.AdditionalInputs): dims whose sizes "
                         "differ become Dim.DYNAMIC, and each set is checked against the solved program"));
  connect(action_, &QAction::triggered, this, [this] {
    const QStringList paths = QFileDialog::getOpenFileNames(parent_, tr("Example Inputs"), QString(),
                                                            tr("torch.save'd inputs (*.pt *.pth);;All files (*)"));
    if (!paths.isEmpty()) useInputFiles(paths);
  });
  connect(session_, &SpecSession::resultChanged, this, [this] {
    if (awaiting_solve_) verify();
  });
  connect(session_, &SpecSession::stateChanged, this, [this] {
    action_->setEnabled(session_->program() && session_->program()->prepared);
    if (session_->program().get() != program_) {  // another program: the sets were about the last one
      program_ = session_->program().get();
      files_.clear();
      awaiting_solve_ = false;
      if (!status_.isEmpty()) setStatus(QString());
    }
  });
  action_->setEnabled(false);
}

void AdditionalInputsAction::setStatus(const QString& status) {
  status_ = status;
  emit statusChanged(status_);
}

void AdditionalInputsAction::useInputFiles(const QStringList& paths) {
  const LoadedProgramPtr& loaded = session_->program();
  if (!loaded || !loaded->prepared) return;
  files_.clear();
  program_ = loaded.get();
  try {
    for (const QString& p : paths) files_.push_back(runtime::read_inputs_file(QFile::encodeName(p).toStdString()));
    const auto names = runtime::user_input_names(*loaded->program);
    std::vector<symbolic::ExampleSet> sets;
    for (const auto& f : files_) sets.push_back(runtime::file_examples(f, names));
    const auto spec = symbolic::infer_dynamic_shapes(runtime::program_examples(*loaded->program), sets);
    awaiting_solve_ = true;
    setStatus(tr("Solving the spec %n example input set(s) imply…", "", int(files_.size())));
    session_->document()->setSpec(spec, tr("Spec from %n example input set(s)", "", int(files_.size())),
                                  SpecDocument::Origin::Fixes);
    if (session_->state() != SpecSession::State::Solving) verify();  // the same spec: no new solve comes
  } catch (const std::exception& e) {
    awaiting_solve_ = false;
    setStatus(tr("No spec from these inputs: %1").arg(QString::fromStdString(e.what())));
  }
}

void AdditionalInputsAction::verify() {
  const SolveResultPtr& result = session_->result();
  const LoadedProgramPtr& loaded = session_->program();
  if (!result || !loaded) return;
  awaiting_solve_ = false;
  if (result->status != ops::SolveStatus::Ok) {
    setStatus(tr("The spec the example inputs imply does not export: see Violations and fixes"));
    return;
  }
  const auto problems = runtime::verify_inputs(runtime::with_solved_inputs(*loaded->program, *result), files_);
  if (problems.empty()) {
    setStatus(tr("All %n example input set(s) fit the solved program", "", int(files_.size())));
    return;
  }
  QStringList lines;
  for (const auto& p : problems) lines << QString::fromStdString(p);
  setStatus(tr("Refused by the solved program: %1").arg(lines.join("; ")));
}

}  // namespace exportlens::ui

#include "ui/shapes/spec_session.h"

#include <algorithm>

#include "engine/ops/program_solver.h"
#include "ui/core/program_model.h"
#include "ui/shapes/spec_document.h"

namespace exportlens::ui {

SpecSession::SpecSession(QObject* parent)
    : QObject(parent), document_(new SpecDocument(this)), solver_(new SpecSolver(this)) {
  connect(document_, &SpecDocument::specChanged, this, [this](SpecDocument::Origin origin) {
    solver_->request(document_->spec(), origin == SpecDocument::Origin::Reset);
  });
  connect(solver_, &SpecSolver::solving, this, [this] { setState(State::Solving); });
  connect(solver_, &SpecSolver::solved, this, &SpecSession::onSolved);
}

void SpecSession::setProgram(const LoadedProgramPtr& program) {
  program_ = program;
  result_.reset();
  unavailable_.clear();
  solver_->setProgram(program);
  if (!program) {
    document_->reset({}, {});
    setState(State::NoProgram);
  } else if (!program->prepared) {
    unavailable_ = program->prepareError;
    document_->reset({}, {});
    setState(State::Unavailable);
  } else {
    const auto* tree = program->prepared->input_tree();
    document_->reset(program->prepared->inputs(), program->prepared->recorded_spec(),  // solves at once
                     tree ? *tree : std::vector<symbolic::InputTree>{});
  }
  emit resultChanged();
}

QString SpecSession::applySuggestedFixes() {
  if (!result_ || result_->suggested_fixes_text.empty()) return tr("there are no suggested fixes");
  return applyFixes(QString::fromStdString(result_->suggested_fixes_text));
}

QString SpecSession::applyFixes(const QString& fixes) {
  if (fixes.trimmed().isEmpty()) return tr("there are no suggested fixes");
  if (!program_ || !program_->prepared) return tr("no program to solve the spec against");
  try {
    const auto fixed = symbolic::apply_suggested_fixes(document_->spec(), fixes.toStdString());
    document_->setSpec(fixed, tr("Apply suggested fixes"), SpecDocument::Origin::Fixes);
  } catch (const std::exception& e) {
    return tr("the fixes cannot be applied: %1").arg(QString::fromUtf8(e.what()));
  }
  return {};
}

void SpecSession::resetSpec(const symbolic::DynamicShapesSpec& spec) {
  if (!program_ || !program_->prepared) return;
  const auto* tree = program_->prepared->input_tree();
  document_->reset(program_->prepared->inputs(), spec, tree ? *tree : std::vector<symbolic::InputTree>{});  // solves at once
}

void SpecSession::onSolved(const SolveResultPtr& result) {
  result_ = result;
  switch (result->status) {
    case ops::SolveStatus::Ok: setState(State::Ok); break;
    case ops::SolveStatus::Violation: setState(State::Violation); break;
    case ops::SolveStatus::Error: setState(State::Error); break;
  }
  emit resultChanged();
}

void SpecSession::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programOpened, this, [this, model] { setProgram(model->opened()); });
  connect(this, &SpecSession::resultChanged, model, [this, model] { model->setSolve(result_, document_->isEdited()); });
}

void SpecSession::setState(State state) {
  if (state == state_ && state != State::Violation) return;
  state_ = state;
  emit stateChanged(state);
}

QString SpecSession::stateText() const {
  switch (state_) {
    case State::NoProgram: return {};
    case State::Unavailable: return tr("shapes unavailable");
    case State::Solving: return tr("solving…");
    case State::Ok: return tr("ok");
    case State::Violation: {
      const int n = result_ ? std::max<int>(1, static_cast<int>(result_->violations.size())) : 1;
      return n == 1 ? tr("1 violation") : tr("%1 violations").arg(n);
    }
    case State::Error:
      return result_ && result_->error_kind == "spec" ? tr("spec error") : tr("error");
  }
  return {};
}

}  // namespace exportlens::ui

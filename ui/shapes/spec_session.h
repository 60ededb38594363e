#pragma once
// The dynamic-shapes workbench of the open program: the spec being edited
// (with undo), re-solved in the background after each edit, and the latest
// result every shapes view shows (guards, violations, ranges, solved shapes).
#include <QObject>
#include <QString>

#include "ui/core/loaded_program.h"
#include "ui/shapes/spec_solver.h"

namespace exportlens::ui {

class ProgramModel;
class SpecDocument;

class SpecSession : public QObject {
  Q_OBJECT
 public:
  enum class State { NoProgram, Unavailable, Solving, Ok, Violation, Error };
  Q_ENUM(State)

  explicit SpecSession(QObject* parent = nullptr);

  const LoadedProgramPtr& program() const { return program_; }
  SpecDocument* document() const { return document_; }
  SpecSolver* solver() const { return solver_; }
  /// The latest solve (null before the first one finishes, or without a program).
  const SolveResultPtr& result() const { return result_; }
  State state() const { return state_; }
  /// What the status bar says: "solving…", "ok", "2 violations", "spec error: …".
  QString stateText() const;
  /// Why shapes cannot be solved for this program (empty when they can).
  const QString& unavailableReason() const { return unavailable_; }

  /// A new program: its recorded spec, solved at once.
  void setProgram(const LoadedProgramPtr& program);
  /// Works on the model's opened program and publishes each result there.
  void follow(ProgramModel* model);
  /// Replaces the spec with the latest result's suggested fixes applied
  /// (undoable); returns why not when they cannot be applied.
  QString applySuggestedFixes();
  /// The same with fixes from elsewhere (torch's, from a captured export).
  QString applyFixes(const QString& fixes);
  /// Makes `spec` the spec the program is about, as if it had been opened with
  /// it (a captured export's own spec): solved at once, the history forgotten.
  void resetSpec(const symbolic::DynamicShapesSpec& spec);

 signals:
  void stateChanged(exportlens::ui::SpecSession::State state);
  /// A new result is in (result() has it).
  void resultChanged();

 private:
  void setState(State state);
  void onSolved(const SolveResultPtr& result);

  LoadedProgramPtr program_;
  SpecDocument* document_;
  SpecSolver* solver_;
  SolveResultPtr result_;
  State state_ = State::NoProgram;
  QString unavailable_;
};

}  // namespace exportlens::ui

#pragma once
// The IR level the window shows, and the program at every level: lowered on
// a worker thread (training -> functional -> core, so a core node's
// provenance passes through the functional program), laid out there too,
// cached per opened file. One job at a time; requests queue behind it.
#include <QFont>
#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>

#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/core/ir_level_choice.h"

namespace exportlens::ui {

/// What one level job made (as far as it got, when lowering failed).
struct LevelJobResult {
  std::shared_ptr<const ir::ExportedProgram> functional, program;
  LoadedProgramPtr shown;
  QStringList functionalWarnings, warnings;
};

class IrLevelController : public QObject {
  Q_OBJECT
 public:
  explicit IrLevelController(QObject* parent = nullptr);
  ~IrLevelController() override;

  /// Fonts used to size node boxes (those the canvas paints with).
  void setNodeFont(const QFont& font) { node_font_ = font; }
  /// A newly opened program: forgets every level, shows it (the first entry,
  /// named after what the file holds: LevelChoice::opened).
  void setTraining(const LoadedProgramPtr& training);

  const QList<LevelChoice>& choices() const { return choices_; }
  /// Re-reads the registered tables (a library loaded since may have added some).
  void refreshChoices() { choices_ = level_choices(opened()); }
  /// The first entry: the opened file's own program, as the switch names it.
  LevelChoice opened() const { return choices_.value(0, LevelChoice::training()); }
  LevelChoice current() const { return current_; }
  /// The shown level's program (laid out); null before a program is opened.
  LoadedProgramPtr currentProgram() const { return shown_.value(current_.key()); }
  /// A level's program if lowered already (laid out or not), else null.
  std::shared_ptr<const ir::ExportedProgram> program(const LevelChoice& choice) const;
  /// A level's program laid out, if done already, else null.
  LoadedProgramPtr shown(const LevelChoice& choice) const { return shown_.value(choice.key()); }
  /// What the lowering that made a level warned about.
  QStringList warnings(const LevelChoice& choice) const { return warnings_.value(choice.key()); }
  /// Why lowering a level failed (empty if it did not).
  QString error(const LevelChoice& choice) const { return errors_.value(choice.key()); }
  bool isBusy() const { return jobs_.isBusy(); }

 public slots:
  /// Shows a level: at once when laid out already, else after a worker job.
  void switchTo(const exportlens::ui::LevelChoice& choice);
  /// Lowers (and lays out, if asked) the levels in the background; levelsChanged() says when.
  void prepare(const QList<exportlens::ui::LevelChoice>& levels, bool layOut);
  /// Drops the running job and the queue.
  void cancel();

 signals:
  void started(const QString& text);
  void progress(int percent, const QString& stage);
  /// The window shows another level now.
  void currentChanged(const exportlens::ui::LevelChoice& choice, const exportlens::ui::LoadedProgramPtr& program);
  /// Lowering or laying out a level failed; the shown level stays.
  void failed(const exportlens::ui::LevelChoice& choice, const QString& message);
  void cancelled();
  /// A level was lowered or laid out (views that compare levels refresh).
  void levelsChanged();
  /// The queue is empty.
  void idle();

 private:
  struct Job {
    LevelChoice choice;
    bool layOut = false;
    bool show = false;
  };
  /// The switch's entry for `choice` (its label), or `choice` where it has none.
  LevelChoice entry(const LevelChoice& choice) const;
  bool satisfied(const Job& job) const;
  void startNext();
  void finish(const JobOutcome<LevelJobResult>& outcome);
  void show(const LevelChoice& choice);

  QFont node_font_;
  QList<LevelChoice> choices_;
  LevelChoice current_;
  QHash<QString, std::shared_ptr<const ir::ExportedProgram>> programs_;
  QHash<QString, LoadedProgramPtr> shown_;
  QHash<QString, QStringList> warnings_;
  QHash<QString, QString> errors_;
  LoadedProgramPtr training_;
  QList<Job> queue_;
  Job running_;
  BackgroundJobs<LevelJobResult> jobs_{this};
};

}  // namespace exportlens::ui

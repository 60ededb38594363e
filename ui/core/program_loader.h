#pragma once
// Opens a .pt2 file on a worker thread: read, lay out, print. Reports
// progress, can be cancelled; one load at a time (a new one replaces the old).
#include <QFont>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include "engine/ir/exported_program.h"
#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"

namespace exportlens::ui {

/// How a file becomes a program. The default opens it as the program source
/// it is (engine/sources: a .pt2 is read); traces pass their own (trace_job.h).
/// `program` names one program of an archive that holds several ("" = its default).
using ProgramReader = std::function<ir::ExportedProgram(const QString& path)>;
ProgramReader pt2_reader(const QString& program = QString());

class ProgramLoader : public QObject {
  Q_OBJECT
 public:
  explicit ProgramLoader(QObject* parent = nullptr);
  ~ProgramLoader() override;

  void setReader(ProgramReader reader) { reader_ = std::move(reader); }
  /// Fonts used to size node boxes (those the canvas paints with).
  void setNodeFont(const QFont& font) { node_font_ = font; }

  /// Starts loading; a load still running is abandoned (without `cancelled`).
  void load(const QString& path, const QString& displayName = QString());
  /// Stops the running load at once (the worker's result will be dropped).
  void cancel();
  bool isBusy() const { return jobs_.isBusy(); }
  QString currentPath() const { return path_; }

 signals:
  void started(const QString& path);
  void progress(int percent, const QString& stage);
  void loaded(exportlens::ui::LoadedProgramPtr program);
  void failed(const QString& path, const QString& message);
  void cancelled(const QString& path);

 private:
  void finish(JobOutcome<LoadedProgramPtr>& outcome);

  ProgramReader reader_;
  QFont node_font_;
  QString path_;
  BackgroundJobs<LoadedProgramPtr> jobs_{this};
};

}  // namespace exportlens::ui

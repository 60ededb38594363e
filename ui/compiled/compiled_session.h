#pragma once
// What the window knows about the compiled side of the file it opened: what
// the archive holds (its programs and AOTInductor compiled models, read off
// the GUI thread; no weights, never a shared library), the compiled model
// shown, the program its kernels are mapped onto (the archive's own, or a
// program file the user linked), the kernel selected and the latest run of
// the compiled model. The Compiled model dock, the program switch, the
// canvas' kernel tint and the inspector's kernel list follow it.
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

#include "engine/compiled/archive_contents.h"
#include "engine/compiled/kernel_map.h"
#include "engine/numerics/compiled_comparison.h"
#include "ui/core/background_jobs.h"

namespace exportlens::ui {

using ArchiveContentsPtr = std::shared_ptr<const compiled::ArchiveContents>;
using CompiledComparisonPtr = std::shared_ptr<const numerics::CompiledComparison>;

class CompiledSession : public QObject {
  Q_OBJECT
 public:
  explicit CompiledSession(QObject* parent = nullptr);

  /// Reads what `path` holds on a worker: contentsChanged, or readFailed.
  void read(const QString& path);
  /// Forgets the archive (another kind of source was opened).
  void clear();
  bool isReading() const { return jobs_.isBusy(); }
  /// The archive read last (or being read).
  QString archivePath() const { return path_; }
  /// Null before an archive was read, or when it could not be.
  const ArchiveContentsPtr& contents() const { return contents_; }
  /// The archive holds compiled code only: no exported program to draw.
  bool compiledOnly() const;

  /// The compiled model shown (the archive's first), or nullptr.
  const compiled::CompiledModel* model() const;
  int modelIndex() const { return model_index_; }
  void setModelIndex(int index);

  /// The program the kernels are mapped onto and where it comes from
  /// ("both.pt2 › model", "program.pt2 (linked)"); null: none, `why` says why.
  void setProgram(std::shared_ptr<const ir::ExportedProgram> program, const QString& origin,
                  const QString& why = QString());
  bool hasMapping() const { return program_ != nullptr; }
  const std::shared_ptr<const ir::ExportedProgram>& program() const { return program_; }
  const compiled::KernelMap& kernelMap() const { return map_; }
  /// "5 of 6 kernels mapped onto 9 nodes (provenance)…", or why nothing is mapped.
  QString mappingText() const { return mapping_text_; }
  QString programOrigin() const { return origin_; }
  /// Per kernel the program's nodes it computes (empty without a mapping).
  QStringList nodesOf(int kernel) const;
  /// The kernels computing `node`, in launch order.
  QList<int> kernelsOf(const QString& node) const;

  int selectedKernel() const { return selected_kernel_; }
  void selectKernel(int kernel);

  /// The latest run of the compiled model shown (null: none since it opened).
  const CompiledComparisonPtr& run() const { return run_; }
  void setRun(CompiledComparisonPtr run);
  /// Milliseconds per kernel index in the latest run.
  QHash<int, double> kernelMilliseconds() const;

 signals:
  void contentsChanged();
  void readFailed(const QString& path, const QString& message);
  /// The compiled model shown changed (another archive, another model).
  void modelChanged();
  /// The program mapped onto changed (or the mapping with it).
  void mappingChanged();
  void kernelSelected(int kernel);
  void runChanged();

 private:
  void remap();

  QString path_;
  ArchiveContentsPtr contents_;
  int model_index_ = -1;
  std::shared_ptr<const ir::ExportedProgram> program_;
  QString origin_, mapping_text_, why_unmapped_;
  compiled::KernelMap map_;
  int selected_kernel_ = -1;
  CompiledComparisonPtr run_;
  BackgroundJobs<ArchiveContentsPtr> jobs_{this};
};

}  // namespace exportlens::ui

#include "ui/compiled/compiled_session.h"

#include <QFile>

#include "ui/core/qstring_from.h"

namespace exportlens::ui {

CompiledSession::CompiledSession(QObject* parent) : QObject(parent) {}

void CompiledSession::read(const QString& path) {
  jobs_.dropAll();
  path_ = path;
  contents_.reset();
  model_index_ = -1;
  program_.reset();
  map_ = {};
  selected_kernel_ = -1;
  run_.reset();
  jobs_.start(
      [file = QFile::encodeName(path).toStdString()](JobContext&, ArchiveContentsPtr& out) {
        out = std::make_shared<const compiled::ArchiveContents>(compiled::read_archive_contents(file));
      },
      [this](JobOutcome<ArchiveContentsPtr>& outcome) {
        if (!outcome.ok() || !outcome.value) {
          if (!outcome.cancelled) emit readFailed(path_, outcome.error);
          return;
        }
        contents_ = outcome.value;
        model_index_ = contents_->compiled.empty() ? -1 : 0;
        emit contentsChanged();
        emit modelChanged();
        remap();
      });
}

void CompiledSession::clear() {
  jobs_.dropAll();
  const bool had = contents_ != nullptr || !path_.isEmpty();
  path_.clear();
  contents_.reset();
  model_index_ = -1;
  program_.reset();
  map_ = {};
  selected_kernel_ = -1;
  run_.reset();
  if (!had) return;
  emit contentsChanged();
  emit modelChanged();
  remap();
  emit runChanged();
}

bool CompiledSession::compiledOnly() const {
  return contents_ && contents_->programs.empty() && !contents_->compiled.empty();
}

const compiled::CompiledModel* CompiledSession::model() const {
  if (!contents_ || model_index_ < 0 || model_index_ >= int(contents_->compiled.size())) return nullptr;
  return &contents_->compiled[model_index_];
}

void CompiledSession::setModelIndex(int index) {
  if (index == model_index_ || !contents_ || index < 0 || index >= int(contents_->compiled.size())) return;
  model_index_ = index;
  selected_kernel_ = -1;
  run_.reset();
  emit modelChanged();
  remap();
  emit runChanged();
}

void CompiledSession::setProgram(std::shared_ptr<const ir::ExportedProgram> program, const QString& origin,
                                 const QString& why) {
  program_ = std::move(program);
  origin_ = program_ ? origin : QString();
  why_unmapped_ = why;
  remap();
}

void CompiledSession::remap() {
  map_ = {};
  selected_kernel_ = -1;
  const compiled::CompiledModel* compiled_model = model();
  if (!compiled_model) {
    mapping_text_.clear();
  } else if (!program_) {
    mapping_text_ = why_unmapped_.isEmpty() ? tr("No program to map the kernels onto.") : why_unmapped_;
  } else if (compiled_model->kernels.empty()) {
    mapping_text_ = tr("The wrapper launches no kernel the reader could find.");
  } else {
    map_ = compiled::map_kernels(*compiled_model, *program_);
    mapping_text_ = qs(map_.summary(*compiled_model));
    if (map_.mapped_kernels == 0) {
      mapping_text_ += compiled_model->has_provenance
                           ? tr(" — no kernel names a node of %1: provenance names nodes it does not have.").arg(origin_)
                           : tr(" — no kernel names a node of %1: the package was compiled without provenance "
                                "tracking and the wrapper's source comments name none of its nodes.")
                                 .arg(origin_);
    }
  }
  emit mappingChanged();
}

QStringList CompiledSession::nodesOf(int kernel) const {
  QStringList out;
  if (kernel < 0 || kernel >= int(map_.nodes_of_kernel.size())) return out;
  for (const std::string& node : map_.nodes_of_kernel[kernel]) out << qs(node);
  return out;
}

QList<int> CompiledSession::kernelsOf(const QString& node) const {
  const auto it = map_.kernels_of_node.find(node.toStdString());
  if (it == map_.kernels_of_node.end()) return {};
  return QList<int>(it->second.begin(), it->second.end());
}

void CompiledSession::selectKernel(int kernel) {
  const compiled::CompiledModel* m = model();
  if (!m || kernel < -1 || kernel >= int(m->kernels.size())) kernel = -1;
  selected_kernel_ = kernel;
  emit kernelSelected(kernel);
}

void CompiledSession::setRun(CompiledComparisonPtr run) {
  run_ = std::move(run);
  emit runChanged();
}

QHash<int, double> CompiledSession::kernelMilliseconds() const {
  QHash<int, double> out;
  if (!run_) return out;
  for (const runtime::CompiledKernelTime& k : run_->compiled.kernels)
    if (k.kernel_index >= 0) out[k.kernel_index] += k.total_ms;
  return out;
}

}  // namespace exportlens::ui

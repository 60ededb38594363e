#include "ui/compiled/compiled_run_worker.h"

namespace exportlens::ui {

CompiledRunWorker::CompiledRunWorker(QObject* parent) : QObject(parent) {
  jobs_.onProgress([this](int percent, const QString& stage) { emit progress(percent, stage); });
}

void CompiledRunWorker::start(numerics::CompiledComparisonRequest request) {
  jobs_.dropAll();
  jobs_.start(
      [request = std::move(request)](JobContext& context, CompiledComparisonPtr& out) mutable {
        request.run.cancel = context.token().get();
        request.run.progress = [&context](int done, int total) {
          context.progress(total > 0 ? 100.0 * done / total : 0, QObject::tr("Run %1 of %2").arg(done).arg(total));
        };
        context.progress(0, QObject::tr("Loading the compiled model…"));
        out = std::make_shared<const numerics::CompiledComparison>(numerics::compare_compiled(request));
      },
      [this](JobOutcome<CompiledComparisonPtr>& outcome) {
        if (outcome.cancelled) {
          emit cancelled();
        } else if (!outcome.ok() || !outcome.value) {
          emit failed(outcome.error);
        } else {
          emit finished(outcome.value);
        }
      });
  emit started();
}

void CompiledRunWorker::cancel() {
  if (jobs_.dropAll()) emit cancelled();
}

}  // namespace exportlens::ui

#include "ui/examples/trace_job.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>

#include <mutex>
#include <stdexcept>

#include "engine/sources/program_source.h"

namespace exportlens::ui {
namespace {

/// torch-style frames in a message: File "x.cpp", line 42, in forward / the line.
void add_message_sources(const QString& message, QStringList& out) {
  static const QRegularExpression frame(QStringLiteral(R"re(File "([^"]+)", line (\d+)(?:, in (\w+))?\n[ \t]*([^\n]*))re"));
  for (auto it = frame.globalMatch(message); it.hasNext();) {
    const auto m = it.next();
    QString where = QFileInfo(m.captured(1)).fileName() + ":" + m.captured(2);
    if (!m.captured(3).isEmpty()) where += QStringLiteral(" in ") + m.captured(3);
    const QString code = m.captured(4).trimmed();
    out << (code.isEmpty() ? where : where + QStringLiteral(": ") + code);
  }
}

/// The violations' provenance ("dynamic_shapes.cpp:31 in forward").
void add_violation_sources(const ops::SolveResult& report, QStringList& out) {
  for (const auto& v : report.violations) {
    if (!v.origin || v.origin->location.empty()) continue;
    QString where = QString::fromStdString(v.origin->location);
    if (!v.origin->code.empty()) where += QStringLiteral(": ") + QString::fromStdString(v.origin->code).trimmed();
    out << where;
  }
}

TraceFailure failure_of(const trace::TraceOutcome& outcome) {
  TraceFailure f;
  f.type = QString::fromStdString(outcome.error_type);
  f.kind = QString::fromStdString(outcome.report.error_kind);
  f.message = QString::fromStdString(outcome.report.message);
  f.traceMs = outcome.trace_ms;
  f.fixedSpec = QString::fromStdString(outcome.report.fixed_spec_text);
  if (!outcome.report.violations.empty()) f.report = std::make_shared<const ops::SolveResult>(outcome.report);
  add_message_sources(f.message, f.sources);
  add_violation_sources(outcome.report, f.sources);
  f.sources.removeDuplicates();
  return f;
}

trace::TraceOutcome run_trace(const TraceJob& job) {
  sources::OpenRequest request;
  request.model = job.model.toStdString();
  if (job.spec) request.trace.dynamic_shapes = job.spec->toStdString();
  // One trace at a time: a cancelled trace cannot be interrupted and runs on
  // beside the next one, and the tracer's LibTorch hooks are process-wide.
  static std::mutex one_at_a_time;
  std::lock_guard lock(one_at_a_time);
  return sources::open_source(QFile::encodeName(job.sourcePath()).toStdString(), request);
}

}  // namespace

QString TraceJob::sourcePath() const { return isExample() ? QLatin1String(sources::kExampleScheme) + example : library; }

QString TraceJob::displayName() const {
  if (isExample()) return QObject::tr("%1 (example)").arg(example);
  const QString file = QFileInfo(library).fileName();
  return model.isEmpty() ? file : file + QStringLiteral(" › ") + model;
}

QString TraceFailure::title() const {
  if (type.isEmpty()) return kind.isEmpty() ? QObject::tr("Export failed") : kind;
  return type.section(QLatin1Char('.'), -1);
}

ProgramReader trace_reader(TraceJob job, std::shared_ptr<TraceFailure> failure) {
  return [job = std::move(job), failure = std::move(failure)](const QString&) {
    trace::TraceOutcome outcome;
    try {
      outcome = run_trace(job);
    } catch (const std::exception& e) {  // unknown example, unloadable library, no such model
      failure->type.clear();
      failure->kind = job.isExample() ? QStringLiteral("example") : QStringLiteral("library");
      failure->message = QString::fromUtf8(e.what());
      throw;
    }
    if (!outcome.program) {
      *failure = failure_of(outcome);
      throw std::runtime_error(outcome.error_type + ": " + outcome.report.message);
    }
    return std::move(*outcome.program);
  };
}

}  // namespace exportlens::ui

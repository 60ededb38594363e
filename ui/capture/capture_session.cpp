#include "ui/capture/capture_session.h"

#include <QFile>
#include <QFileInfo>

#include <filesystem>

#include "engine/capture/attempt_program.h"
#include "engine/capture/trace_log.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

std::string encoded(const QString& path) { return QFile::encodeName(path).toStdString(); }

// What an attempt's graph will be, without reading it (the loader does).
void describe_program(AttemptRow& row) {
  const capture::Attempt& a = *row.attempt;
  std::error_code ec;
  if (!a.program.empty() && std::filesystem::exists(a.program, ec)) {
    row.programKind = qs(capture::program_kind_title(capture::ProgramKind::Exported));
  } else if (a.draft && !a.draft->program.empty() && std::filesystem::exists(a.draft->program, ec)) {
    row.programKind = qs(capture::program_kind_title(capture::ProgramKind::Draft));
  } else if (row.diagnosis->graph_text) {
    row.programKind = qs(capture::program_kind_title(row.diagnosis->graph_text->kind == "make_fx_fail_partial"
                                                         ? capture::ProgramKind::PartialGraph
                                                         : capture::ProgramKind::LoggedProgram));
  } else {
    row.noProgram = a.ok ? QObject::tr("its program was not saved")
                         : QObject::tr("it failed before torch made a program: capture again with draft export "
                                       "for a draft program");
    if (a.draft && !a.draft->error.empty())
      row.noProgram = QObject::tr("draft_export failed too (%1)").arg(qs(a.draft->error));
  }
}

QVector<AttemptRow> rows_of_capture(const QString& path, const serde::ReadLimits& limits, const JobContext& context) {
  auto c = std::make_shared<const capture::Capture>(capture::read_capture(encoded(path), limits));
  QVector<AttemptRow> rows;
  for (size_t i = 0; i < c->attempts.size(); ++i) {
    context.checkCancelled();
    context.progress(100.0 * double(i) / double(c->attempts.size()), QObject::tr("Reading attempt %1…").arg(i + 1));
    AttemptRow row;
    row.capture = c;
    row.attempt = std::shared_ptr<const capture::Attempt>(c, &c->attempts[i]);
    row.diagnosis = std::make_shared<const capture::AttemptDiagnosis>(capture::diagnose(*c, c->attempts[i], limits));
    row.source = path;
    row.program = QString::number(c->attempts[i].index);
    describe_program(row);
    rows.push_back(std::move(row));
  }
  return rows;
}

// A plain trace log is one attempt with no capture around it: no call site, no message unless strict mode's.
QVector<AttemptRow> rows_of_log(const QString& path, const serde::ReadLimits& limits) {
  const capture::TraceLog log = capture::read_trace_log(encoded(path), limits);
  auto d = std::make_shared<const capture::AttemptDiagnosis>(capture::diagnose(log, limits));
  auto attempt = std::make_shared<capture::Attempt>();
  attempt->index = 1;
  attempt->function = "export";
  attempt->ok = d->message.empty();
  attempt->torch_version = d->torch_version;
  attempt->model_class = QFileInfo(path).fileName().toStdString();
  AttemptRow row;
  row.attempt = attempt;
  row.diagnosis = d;
  row.source = path;
  describe_program(row);
  return {row};
}

}  // namespace

CaptureSession::CaptureSession(QObject* parent) : QObject(parent) {}

void CaptureSession::open(const QString& path, int current) {
  jobs_.dropAll();
  jobs_.start(
      [path, current](JobContext& context, std::shared_ptr<Read>& out) {
        out = std::make_shared<Read>();
        const bool log = !capture::is_capture(encoded(path)) && capture::is_trace_log(encoded(path));
        out->rows = log ? rows_of_log(path, {}) : rows_of_capture(path, {}, context);
        out->current = 0;
        if (current > 0) {
          for (int i = 0; i < out->rows.size(); ++i)
            if (out->rows[i].attempt->index == current) out->current = i;
        } else {
          for (int i = 0; i < out->rows.size(); ++i)
            if (!out->rows[i].attempt->ok) {
              out->current = i;
              break;
            }
        }
      },
      [this, path](JobOutcome<std::shared_ptr<Read>>& outcome) {
        if (!outcome.ok() || !outcome.value) {
          if (!outcome.cancelled) emit failed(path, outcome.error);
          return;
        }
        path_ = path;
        rows_ = std::move(outcome.value->rows);
        current_ = -1;
        emit rowsChanged();
        emit opened();
        setCurrent(rows_.isEmpty() ? -1 : outcome.value->current);
      });
}

void CaptureSession::addRerun(const QString& folder, int of) {
  jobs_.start(
      [folder](JobContext& context, std::shared_ptr<Read>& out) {
        out = std::make_shared<Read>();
        out->rows = rows_of_capture(folder, {}, context);
      },
      [this, folder, of](JobOutcome<std::shared_ptr<Read>>& outcome) {
        if (!outcome.ok() || !outcome.value) {
          if (!outcome.cancelled) emit failed(folder, outcome.error);
          return;
        }
        // The attempt that was re-run: the one the override replaced the spec of.
        int added = -1;
        for (AttemptRow& row : outcome.value->rows) {
          if (!row.attempt->spec_override) continue;
          row.rerunOf = of;
          int at = of + 1;
          while (at < rows_.size() && rows_[at].rerunOf == of) ++at;  // after earlier re-runs of the same row
          rows_.insert(at, std::move(row));
          for (AttemptRow& later : rows_)
            if (later.rerunOf >= at) ++later.rerunOf;
          added = at;
          break;
        }
        if (added < 0) {
          emit failed(folder, tr("the re-run made no export call with the edited spec (did the script reach that call?)"));
          return;
        }
        emit rowsChanged();
        setCurrent(added);
      });
}

void CaptureSession::close() {
  jobs_.dropAll();
  rows_.clear();
  path_.clear();
  current_ = -1;
  emit rowsChanged();
  emit currentChanged(-1);
}

void CaptureSession::setCurrent(int row) {
  if (row == current_ || row >= rows_.size()) return;
  current_ = row;
  emit currentChanged(row);
}

}  // namespace exportlens::ui

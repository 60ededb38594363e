#include "ui/capture/attempts_model.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>

#include "engine/capture/failure_class.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

AttemptsModel::AttemptsModel(CaptureSession* session, QObject* parent)
    : NodeTableModel({{QString()}, {tr("#"), true}, {tr("Model")}, {tr("User line")}, {tr("Failure")},
                      {tr("Time"), true}},
                     parent),
      session_(session) {
  connect(session_, &CaptureSession::rowsChanged, this, [this] { resetRows([] {}); });
}

int AttemptsModel::rows() const { return int(session_->rows().size()); }

QVariant AttemptsModel::text(int row, int column) const {
  const AttemptRow& r = session_->rows()[row];
  const capture::Attempt& a = *r.attempt;
  switch (column) {
    case Outcome: return a.ok ? QStringLiteral("✓") : QStringLiteral("✗");
    case Index: return r.rerunOf >= 0 ? tr("↻ %1").arg(a.index) : QString::number(a.index);
    case Model: return qs(a.model_class).section(QLatin1Char('.'), -1);
    case Line:
      return a.call_site.file.empty() ? QString()
                                      : QFileInfo(qs(a.call_site.file)).fileName() + QLatin1Char(':') +
                                            QString::number(a.call_site.line);
    case Failure: return a.ok ? QString() : qs(capture::failure_class_title(r.diagnosis->failure_class));
    case Time: return a.seconds > 0 ? QStringLiteral("%1 s").arg(a.seconds, 0, 'f', 2) : QString();
  }
  return {};
}

QVariant AttemptsModel::toolTip(int row, int column) const {
  const AttemptRow& r = session_->rows()[row];
  if (column == Line) return qs(r.attempt->call_site.location() + ": " + r.attempt->call_site.code);
  if (column == Failure) return qs(r.diagnosis->headline);
  if (column == Index && r.rerunOf >= 0) return tr("re-run with an edited spec");
  return {};
}

QVariant AttemptsModel::sortKey(int row, int column) const {
  const AttemptRow& r = session_->rows()[row];
  if (column == Index) return r.attempt->index;
  if (column == Time) return r.attempt->seconds;
  return text(row, column);
}

QVariant AttemptsModel::otherRole(int row, int column, int role) const {
  if (role == Qt::ForegroundRole && column == Outcome)
    return QBrush(session_->rows()[row].attempt->ok ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
  return {};
}

}  // namespace exportlens::ui

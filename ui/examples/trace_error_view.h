#pragma once
// A failed trace, readably: torch's suggested fixes first, then its exception
// type, the kind, the C++ source lines it names, and the whole message in monospace.
#include <QTextBrowser>

#include "ui/examples/trace_job.h"

namespace exportlens::ui {

class TraceErrorView : public QTextBrowser {
  Q_OBJECT
 public:
  explicit TraceErrorView(QWidget* parent = nullptr);

  void setFailure(const QString& what, const TraceFailure& failure);
  const TraceFailure& failure() const { return failure_; }

 private:
  TraceFailure failure_;
};

/// A non-modal dialog around a TraceErrorView (for model libraries).
void show_trace_error_dialog(QWidget* parent, const QString& what, const TraceFailure& failure);

}  // namespace exportlens::ui

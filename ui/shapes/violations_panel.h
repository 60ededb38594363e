#pragma once
// The Violations & fixes dock: torch's verdict, the violated spec items
// (each with its guard, node and source line), and the suggested fixes as
// text with Copy and Apply fixes (which edits the spec, and so re-solves).
// A failed trace's violations can stand in until the session's next result.
#include <QWidget>

#include <functional>

#include "ui/shapes/spec_solver.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace exportlens::ui {

class SpecSession;
class ViolationsModel;

class ViolationsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ViolationsPanel(SpecSession* session, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  ViolationsModel* model() const { return model_; }
  QPlainTextEdit* fixesText() const { return fixes_; }
  QPushButton* applyButton() const { return apply_; }
  QPushButton* copyButton() const { return copy_; }
  QString verdictText() const;
  /// Shows a failed trace's violations (`report`; null: back to the session's)
  /// until the session's next result; Apply fixes then calls `apply` (none: disabled).
  void showTraceReport(const QString& what, const SolveResultPtr& report, std::function<void()> apply);
  bool showsTraceReport() const { return showing_trace_; }

 signals:
  void nodeActivated(const QString& name);
  /// Something to say in the status bar ("Applied the suggested fixes").
  void message(const QString& text);

 private:
  void showResult();
  void showReport(const SolveResultPtr& result);
  void showVerdict();

  SpecSession* session_;
  ViolationsModel* model_;
  QLabel* verdict_;
  QTableView* table_;
  QPlainTextEdit* fixes_;
  QPushButton* copy_;
  QPushButton* apply_;
  bool showing_trace_ = false;
  std::function<void()> trace_apply_;  // re-traces with the fixes (a failed trace's)
};

}  // namespace exportlens::ui

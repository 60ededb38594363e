#pragma once
// The Examples page (the start page): every built-in C++ port of a seed
// example, grouped by family and searchable, with its description, the
// outcome torch gives and its dynamic_shapes spec, editable. "Trace" asks the
// window to trace it; the outcome comes back here (a summary, or the error).
#include <QWidget>

#include <vector>

#include "engine/trace/trace_facade.h"
#include "ui/examples/trace_job.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace exportlens::ui {

class TraceErrorView;

/// "exports" or "fails: data-dependent guard (GuardOnDataDependentSymNode)".
QString expected_outcome_text(const std::string& expected);

class ExamplesGallery : public QWidget {
  Q_OBJECT
 public:
  explicit ExamplesGallery(QWidget* parent = nullptr);

  const std::vector<trace::ModelSummary>& examples() const { return examples_; }
  /// The names the (filtered) list shows, in order.
  QStringList visibleNames() const;
  QString currentName() const { return current_; }
  void selectExample(const QString& name);
  /// The spec the editor holds; nullopt while it is the example's own.
  std::optional<QString> editedSpec() const;

  /// A trace of `name` started / produced a program / failed.
  void showTracing(const QString& name);
  void showTraced(const QString& name, const QString& summary);
  void showFailure(const QString& name, const TraceFailure& failure);

  QLineEdit* searchField() const { return search_; }
  QTreeView* list() const { return list_; }
  QPlainTextEdit* specEditor() const { return spec_; }
  QPushButton* traceButton() const { return trace_button_; }
  /// Shown when the failed trace suggested fixes: puts the fixed spec in and traces.
  QPushButton* applyFixesButton() const { return fixes_button_; }
  TraceErrorView* errorView() const { return error_view_; }
  QLabel* resultLabel() const { return result_; }

 signals:
  void traceRequested(const QString& name, const std::optional<QString>& spec);
  void openFileRequested();
  void openModelRequested();
  void builtinExampleRequested();

 private:
  QWidget* makeHeader();
  QWidget* makeDetails();
  void fillModel();
  void showDetails(const QString& name);
  void requestTrace();
  const trace::ModelSummary* find(const QString& name) const;

  std::vector<trace::ModelSummary> examples_;
  QString current_;
  QStandardItemModel* model_ = nullptr;
  QSortFilterProxyModel* filter_ = nullptr;
  QLineEdit* search_ = nullptr;
  QTreeView* list_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* facts_ = nullptr;
  QLabel* description_ = nullptr;
  QLabel* expected_ = nullptr;
  QLabel* notes_ = nullptr;
  QPlainTextEdit* spec_ = nullptr;
  QPushButton* trace_button_ = nullptr;
  QPushButton* reset_button_ = nullptr;
  QPushButton* fixes_button_ = nullptr;
  QString fixed_spec_;
  QLabel* result_ = nullptr;
  TraceErrorView* error_view_ = nullptr;
};

}  // namespace exportlens::ui

#pragma once
// One export attempt, failed or not, as the torch.export tutorials teach to
// read it: first torch's message and the user line where it arose; then the
// violated spec entries with torch's suggested fixes (Apply puts them in the
// spec editor), the guards in torch's order (each with its user line and
// code, expandable to the framework stack), the symbols with the input
// dimension and spec entry each stands for, the specializations with their
// reasons, and for a data-dependent error the line that made the value and
// torch's torch._check hints. Guards and graph nodes made by the same user
// line select each other.
#include <QWidget>

#include <memory>

#include "engine/capture/capture_folder.h"
#include "ui/diagnostics/diagnosis_models.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTreeView;

namespace exportlens::ui {

class ProgramModel;

class AttemptView : public QWidget {
  Q_OBJECT
 public:
  enum Section { SpecEntries, Guards, Symbols, Specializations, DataDependent };
  explicit AttemptView(QWidget* parent = nullptr);

  /// Shows `attempt` explained by `diagnosis`; `program` says what the graph
  /// shows for it ("draft program (draft_export)", or why there is none).
  void show(std::shared_ptr<const capture::Attempt> attempt, DiagnosisPtr diagnosis, const QString& program);
  void clear();
  /// Guards select their nodes; a node selected elsewhere selects its guards.
  void follow(ProgramModel* model);

  QLabel* headline() const { return headline_; }
  QLabel* whereLabel() const { return where_; }
  QPlainTextEdit* messageText() const { return message_; }
  QTabWidget* sections() const { return sections_; }
  QTableView* specEntriesTable() const { return entries_table_; }
  QTreeView* guardsTree() const { return guards_tree_; }
  QTableView* symbolsTable() const { return symbols_table_; }
  QTableView* specializationsTable() const { return specializations_table_; }
  QTextBrowser* dataDependentText() const { return data_dependent_text_; }
  QPushButton* applyFixesButton() const { return apply_fixes_; }
  GuardTreeModel* guardsModel() const { return guards_; }
  /// Whether a section has rows (its tab is shown).
  bool sectionShown(Section section) const;

 signals:
  /// Apply: the attempt's spec with torch's suggested fixes (Python text).
  void applyFixesRequested(const QString& fixes);
  void nodeActivated(const QString& node);

 private:
  void showSection(Section section, int rows, const QString& title);

  QLabel* headline_;
  QLabel* where_;
  QLabel* program_;
  QPlainTextEdit* message_;
  QTabWidget* sections_;
  QWidget* section_pages_[5] = {};
  ViolatedEntriesModel* entries_;
  GuardTreeModel* guards_;
  SymbolsModel* symbols_;
  SpecializationsModel* specializations_;
  QTableView* entries_table_;
  QTreeView* guards_tree_;
  QTableView* symbols_table_;
  QTableView* specializations_table_;
  QTextBrowser* data_dependent_text_;
  QPushButton* apply_fixes_;
  QPushButton* copy_fixes_;
  std::shared_ptr<const capture::Attempt> attempt_;
  DiagnosisPtr diagnosis_;
  bool following_selection_ = false;
};

}  // namespace exportlens::ui

#pragma once
// The Compiled model dock: what the archive holds and the compiled model
// shown (its model switch when there are several), the program its kernels
// are mapped onto (Link Program File… where the archive has none), Run
// Compiled Model… with progress and Cancel, and tabs: Overview (metadata,
// inputs, outputs, specs), Kernels (a click selects the kernel's nodes on the
// canvas, a double-click opens its source, the context menu its definition
// or its launch in the wrapper), Constants, Files (a double-click
// reads a source), Outputs (the latest run against the program).
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace exportlens::ui {

class CompiledFilesModel;
class CompiledOutputsModel;
class CompiledOverviewModel;
class CompiledSession;
class ConstantsModel;
class KernelsModel;

class CompiledModelPanel : public QWidget {
  Q_OBJECT
 public:
  enum Tab { OverviewTab, KernelsTab, ConstantsTab, FilesTab, OutputsTab };
  explicit CompiledModelPanel(CompiledSession* session, QWidget* parent = nullptr);

  QString summaryText() const;
  QString mappingText() const;
  QTabWidget* tabs() const { return tabs_; }
  QTableView* kernelsTable() const { return kernels_table_; }
  QTableView* filesTable() const { return files_table_; }
  QTableView* constantsTable() const { return constants_table_; }
  QTableView* outputsTable() const { return outputs_table_; }
  CompiledOverviewModel* overviewModel() const { return overview_; }
  KernelsModel* kernelsModel() const { return kernels_; }
  ConstantsModel* constantsModel() const { return constants_; }
  CompiledFilesModel* filesModel() const { return files_; }
  CompiledOutputsModel* outputsModel() const { return outputs_; }
  QPushButton* linkButton() const { return link_button_; }
  QPushButton* runButton() const { return run_button_; }
  QPushButton* cancelButton() const { return cancel_button_; }
  QPushButton* inputsButton() const { return inputs_button_; }
  /// The inputs file chosen for runs ("" = random inputs from the program's signature).
  QString inputsFile() const { return inputs_file_; }
  void setInputsFile(const QString& path);
  QString runText() const;

 public slots:
  /// A run is under way (progress shown, Cancel enabled) or not.
  void setRunning(bool running);
  void setRunProgress(int percent, const QString& stage);
  /// The line under the run buttons: the latest run's verdict, or why it failed.
  void setRunText(const QString& text);

 signals:
  void linkRequested();
  void runRequested();
  void cancelRequested();
  /// Open `entry` of the archive at `line` in the source viewer.
  void sourceRequested(const QString& entry, int line);
  /// Open kernel `kernel`'s source: its definition, or where the wrapper launches it.
  void kernelSourceRequested(int kernel, bool atLaunch);

 private:
  void refresh();
  void showSelectedKernel(int kernel);
  int kernelAt(const QModelIndex& index) const;
  void showKernelMenu(const QPoint& at);

  CompiledSession* session_;
  QLabel* summary_;
  QComboBox* model_box_;
  QLabel* mapping_;
  QPushButton* link_button_;
  QPushButton* run_button_;
  QPushButton* cancel_button_;
  QPushButton* inputs_button_;
  QProgressBar* progress_;
  QLabel* run_text_;
  QTabWidget* tabs_;
  CompiledOverviewModel* overview_;
  KernelsModel* kernels_;
  QSortFilterProxyModel* kernels_sorted_;
  ConstantsModel* constants_;
  CompiledFilesModel* files_;
  CompiledOutputsModel* outputs_;
  QTableView* overview_table_;
  QTableView* kernels_table_;
  QTableView* constants_table_;
  QTableView* files_table_;
  QTableView* outputs_table_;
  QString inputs_file_;
  bool following_ = false;
};

}  // namespace exportlens::ui
